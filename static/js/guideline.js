// The guideline panel beside an editor (templates/guidelines/_panel.html): it holds every type's guideline
// and shows the one of the type chosen in `select`, following each change of the type.
export function guidelinePanel(panel, select) {
  const sections = [...panel.querySelectorAll("section.guideline")];
  const unchosen = panel.querySelector("#guideline-unchosen");
  const follow = () => {
    for (const section of sections) section.hidden = section.dataset.type !== select.value;
    unchosen.hidden = sections.some((section) => !section.hidden);
  };
  const toggle = (open = panel.hidden) => {
    panel.hidden = !open;
    document.body.classList.toggle("with-guideline", open);
    follow();
  };
  select.addEventListener("change", follow);
  panel.querySelector("#guideline-close").addEventListener("click", () => toggle(false));
  follow();
  return { follow, toggle };
}
