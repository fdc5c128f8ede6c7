// The gold editor's preview: the Markdown rendered by the app (POST /api/preview: safe HTML, no script, no
// image) in place of the editor, and back; `toggle()` switches, the button says which is shown.
import { postJson } from "./net.js";

export function markdownPreview({ editor, box, button, url }) {
  let shown = false;
  async function show() {
    const reply = await postJson(url, { markdown: editor.value });
    if (reply.status !== 200) {
      box.textContent = `No preview: ${reply.data?.message || `error ${reply.status}`}.`;
    } else {
      box.innerHTML = reply.data.html; // the app's own sanitised rendering (web/markdown.py render_gold)
    }
  }
  async function toggle(on = !shown) {
    shown = on;
    if (shown) await show();
    box.hidden = !shown;
    editor.hidden = shown;
    button.setAttribute("aria-pressed", String(shown));
    button.textContent = shown ? "Edit (q)" : "Preview (q)";
    (shown ? box : editor).focus();
  }
  return { toggle, isShown: () => shown };
}
