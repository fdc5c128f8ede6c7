// The annotate view's switches between a captured page's variants (templates/annotate/_variants.html): the
// raw response or its rendering in Chromium (Shift+R), plain or styled with its captured stylesheets (Shift+V),
// and the screenshot taken at capture beside the frame. The frame's address carries the variant
// (`rendering=rendered`, `styled=1`); a new document in the frame is wired for clicks as any other. The view
// opens on the rendering where the team scores it (the frame's first address and `data-rendered` say so).

const $ = (id) => document.getElementById(id);

export function variantAddress(base, rendered, styled) {
  const [path, query = ""] = base.split("?");
  const params = new URLSearchParams(query);
  params.delete("rendering");
  params.delete("styled");
  if (rendered) params.set("rendering", "rendered");
  if (styled) params.set("styled", "1");
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

export function variantName(rendered, styled) {
  return `${rendered ? "Rendering in Chromium" : "Raw response"}, ${styled ? "styled" : "plain"}`;
}

// The shortcuts of the variants the page has (none for a page that was not captured with them).
export function pageVariants(frame) {
  if (!$("variants")) return [];
  const base = frame.dataset.raw;
  const state = { rendered: $("variants").dataset.rendered === "true", styled: false }; // the scored one first
  const show = () => {
    frame.dataset.raw = variantAddress(base, state.rendered, state.styled);
    $("show-rendering")?.setAttribute("aria-pressed", String(state.rendered));
    $("show-styled")?.setAttribute("aria-pressed", String(state.styled));
    $("variant-shown").textContent = variantName(state.rendered, state.styled);
    $("show-rendered").click(); // the frame's own switch loads dataset.raw and leaves the source view
  };
  const toggleRendering = () => { if ($("show-rendering")) { state.rendered = !state.rendered; show(); } };
  const toggleStyled = () => { if ($("show-styled")) { state.styled = !state.styled; show(); } };
  $("show-rendering")?.addEventListener("click", toggleRendering);
  $("show-styled")?.addEventListener("click", toggleStyled);
  const shot = $("show-screenshot");
  shot?.addEventListener("click", () => {
    let figure = $("screenshot");
    if (!figure) {
      figure = document.createElement("figure");
      figure.id = "screenshot";
      figure.className = "screenshot";
      const image = document.createElement("img");
      image.src = shot.dataset.src;
      image.alt = "the page's screenshot, taken when it was rendered at capture";
      figure.append(image);
      frame.after(figure);
      figure.hidden = true;
    }
    figure.hidden = !figure.hidden;
    frame.parentElement.classList.toggle("with-screenshot", !figure.hidden);
    shot.setAttribute("aria-pressed", String(!figure.hidden));
  });
  return [
    { keys: ["R"], label: "show the page's rendering in Chromium, or its raw response", run: toggleRendering },
    { keys: ["V"], label: "show the page styled with its captured stylesheets, or plain", run: toggleStyled },
  ];
}
