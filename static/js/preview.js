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
  let had = null; // what had the focus when the preview was shown: it gets it back
  async function toggle(on = !shown) {
    if (on === shown) return;
    shown = on;
    if (shown) {
      had = document.activeElement;
      await show();
    }
    box.hidden = !shown;
    editor.hidden = shown;
    button.setAttribute("aria-pressed", String(shown));
    button.textContent = shown ? "Edit (q)" : "Preview (q)";
    if (shown) box.focus();
    else if (had && had !== document.body && had.isConnected) had.focus();
    else box.blur();
  }
  return { toggle, isShown: () => shown };
}
