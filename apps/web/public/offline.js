// The offline page (offline.html) reloads the page the visitor asked for once the network is back.
// External, not inline: the content security policy allows no inline scripts.
window.addEventListener("online", () => window.location.reload());
