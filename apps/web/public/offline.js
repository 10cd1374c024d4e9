// The offline page (offline.html) loads the page the visitor asked for again: on "Try again", and
// by itself once the network is back. External, not inline: the content security policy allows
// no inline scripts.
const tryAgain = () => window.location.reload();
window.addEventListener("online", tryAgain);
document.getElementById("try-again")?.addEventListener("click", tryAgain);
