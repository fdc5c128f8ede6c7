// The top navigation's section menus (<details>): one open at a time, closed by Escape (focus back on its
// section's name) and by a click or a focus outside it. Without this module the menus still open and close.
const menus = [...document.querySelectorAll("nav.sections details")];

function closeAll(except) {
  for (const menu of menus) {
    if (menu !== except) menu.open = false;
  }
}

for (const menu of menus) {
  menu.addEventListener("toggle", () => {
    if (menu.open) closeAll(menu);
  });
  menu.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && menu.open) {
      event.stopPropagation();
      menu.open = false;
      menu.querySelector("summary").focus();
    }
  });
}

document.addEventListener("click", (event) => {
  if (!event.target.closest("nav.sections details")) closeAll(null);
});
document.addEventListener("focusin", (event) => {
  if (!event.target.closest("nav.sections details")) closeAll(null);
});
