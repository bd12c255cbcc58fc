// The offline page (templates/offline.html), which the service worker shows for any page asked
// for while the server cannot be reached.  Its words come with the page (the worker keeps it);
// it imports nothing, so that it works from the worker's cache alone.  It tries again when
// asked, and by itself as soon as the browser says it is back online.
const retry = () => location.reload();
document.getElementById("offline-retry").addEventListener("click", retry);
window.addEventListener("online", retry);
