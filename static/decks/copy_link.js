// "Copy link" buttons (data-copy-link="<url>"): put the URL on the clipboard and say so beside the
// button (its aria-live status). Without the Clipboard API (plain http, old browsers) the link's
// text field is selected instead, so the player copies it with the keyboard.
document.addEventListener("click", async (event) => {
  const button = event.target.closest("[data-copy-link]");
  if (!button) return;
  const status = document.getElementById(button.getAttribute("aria-describedby"));
  try {
    await navigator.clipboard.writeText(button.dataset.copyLink);
    if (status) status.textContent = button.dataset.copiedText || "Link copied.";
  } catch (error) {
    const field = document.getElementById(button.dataset.copyField);
    if (field) { field.focus(); field.select(); }
    if (status) status.textContent = button.dataset.selectText || "Press Ctrl+C (⌘C) to copy the link.";
  }
});
