// Drafts kept in this browser (localStorage) until the save that contains them succeeds.
const key = (pageId) => `goldtext:draft:${pageId}`;

export function loadDraft(pageId) {
  try {
    return JSON.parse(localStorage.getItem(key(pageId)));
  } catch {
    return null;
  }
}

export function storeDraft(pageId, draft) {
  try {
    localStorage.setItem(key(pageId), JSON.stringify({ ...draft, savedAt: new Date().toISOString() }));
  } catch {
    // Storage full or disabled: the editor still holds the text.
  }
}

export function clearDraft(pageId) {
  try {
    localStorage.removeItem(key(pageId));
  } catch {
    // Nothing to clear.
  }
}
