// Twinline's chat bubble for the creator's own site (issue 27 item 5; docs/decisions/0085).
// The admin settings give the snippet: <script src="https://<this site>/embed.js" async></script>.
// A plain script, no framework: a button in the corner that opens this site's /embed page in a
// frame. The page is framed only where the operator allows it (CSP frame-ancestors, sent by the
// server). Theme: data-theme="light" or "dark" on the script tag, else the visitor's
// prefers-color-scheme, passed to the frame as ?theme=.
(() => {
  const script = document.currentScript;
  if (!script?.src || window.__twinlineEmbed) return;
  window.__twinlineEmbed = true;
  const origin = new URL(script.src).origin;
  const asked = script.getAttribute("data-theme");
  const theme = () => {
    if (asked === "light" || asked === "dark") return asked;
    return window.matchMedia?.("(prefers-color-scheme: dark)").matches ? "dark" : "light";
  };
  const brand = "#e11d55";
  const chatIcon =
    '<svg aria-hidden="true" width="26" height="26" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"><path d="M7.9 20A9 9 0 1 0 4 16.1L2 22Z"/></svg>';
  const closeIcon =
    '<svg aria-hidden="true" width="24" height="24" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"><path d="M18 6 6 18M6 6l12 12"/></svg>';

  const button = document.createElement("button");
  button.type = "button";
  button.setAttribute("data-twinline-bubble", "");
  button.setAttribute("aria-expanded", "false");
  button.setAttribute("aria-label", "Open chat");
  button.innerHTML = chatIcon;
  Object.assign(button.style, {
    position: "fixed",
    right: "20px",
    bottom: "20px",
    zIndex: "2147483647",
    width: "56px",
    height: "56px",
    borderRadius: "50%",
    border: "none",
    background: brand,
    color: "#fff",
    cursor: "pointer",
    display: "flex",
    alignItems: "center",
    justifyContent: "center",
    boxShadow: "0 6px 20px rgba(0,0,0,.25)",
  });

  let frame = null;
  const open = () => {
    if (!frame) {
      frame = document.createElement("iframe");
      frame.src = `${origin}/embed?theme=${theme()}`;
      frame.title = "Chat";
      frame.setAttribute("data-twinline-frame", "");
      frame.allow = "clipboard-write";
      Object.assign(frame.style, {
        position: "fixed",
        right: "20px",
        bottom: "88px",
        zIndex: "2147483647",
        width: "min(380px, calc(100vw - 40px))",
        height: "min(600px, calc(100vh - 108px))",
        border: "none",
        borderRadius: "16px",
        boxShadow: "0 10px 40px rgba(0,0,0,.3)",
        background: theme() === "dark" ? "#1c1917" : "#fff",
      });
      document.body.appendChild(frame);
    }
    frame.style.display = "block";
    button.setAttribute("aria-expanded", "true");
    button.setAttribute("aria-label", "Close chat");
    button.innerHTML = closeIcon;
  };
  const close = () => {
    if (frame) frame.style.display = "none";
    button.setAttribute("aria-expanded", "false");
    button.setAttribute("aria-label", "Open chat");
    button.innerHTML = chatIcon;
  };
  button.addEventListener("click", () => {
    if (button.getAttribute("aria-expanded") === "true") close();
    else open();
  });
  const mount = () => document.body.appendChild(button);
  if (document.body) mount();
  else document.addEventListener("DOMContentLoaded", mount);
})();
