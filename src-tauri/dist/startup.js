// The shell shows this page only when the store could not be opened; it defines
// window.__PETSTORE_STARTUP_ERROR__ = { title, detail } before the page runs.
const failure = window.__PETSTORE_STARTUP_ERROR__;
if (failure) {
  document.getElementById('status').textContent = failure.title;
  const detail = document.getElementById('detail');
  detail.textContent = failure.detail;
  detail.hidden = false;
}
