// Starts the interactive reference on /openapi.json of this same server.
// Everything it loads comes from this server: shops are offline.
"use strict";

/**
 * Turns off the "Try it out" panel of every operation whose description carries
 * `"x-try-it": false` (GET /store/orders). The reference asks the `allowTryItOutFor`
 * selector before it draws an operation's test panel.
 * @returns {object} a reference plugin
 */
function tryItOutSwitch() {
  return {
    statePlugins: {
      spec: {
        selectors: {
          allowTryItOutFor: (state, path, method) =>
            state.getIn(["json", "paths", path, method, "x-try-it"]) !== false,
        },
      },
    },
  };
}

window.addEventListener("load", () => {
  window.ui = SwaggerUIBundle({
    url: "/openapi.json",
    dom_id: "#reference",
    // No badge that calls out to a validator on the internet.
    validatorUrl: null,
    // Never load another description named in the page's query string.
    queryConfigEnabled: false,
    // Deep links put a link inside each operation's summary button (nested controls that a
    // screen reader cannot reach); the summaries work without them.
    deepLinking: false,
    displayOperationId: true,
    displayRequestDuration: true,
    showExtensions: true,
    showCommonExtensions: true,
    docExpansion: "list",
    defaultModelsExpandDepth: 0,
    tryItOutEnabled: false,
    persistAuthorization: false,
    presets: [SwaggerUIBundle.presets.apis],
    plugins: [tryItOutSwitch],
    layout: "BaseLayout",
  });
  nameTheSelects();
});

/**
 * Gives every drop-down the reference draws without a label (the server list, the media
 * types) a name a screen reader can say, now and as operations are opened.
 */
function nameTheSelects() {
  const names = { servers: "Server" };
  const name = () => {
    for (const select of document.querySelectorAll("select:not([aria-label])")) {
      const near = select.closest("label, .parameters-col_description, .response-control-media-type, .body-param-content-type");
      const text = names[select.id] || (near && near.textContent.trim().split("\n")[0].slice(0, 60)) || "Choose a value";
      select.setAttribute("aria-label", text);
    }
  };
  // The parts drawn outside the reference's own main landmark get landmarks of their own.
  const regions = {
    ".information-container": "About this interface",
    ".schemes-server-container": "Servers and authorization",
  };
  const mark = () => {
    // Each opened operation's responses table is a region: named after the operation, so the
    // landmarks can be told apart.
    for (const section of document.querySelectorAll("[id$='_responses'][role='region']:not([aria-label])")) {
      section.setAttribute("aria-label", `Responses of ${section.id.replace(/_responses$/, "").replace(/_/g, " ")}`);
    }
    for (const [selector, label] of Object.entries(regions)) {
      const el = document.querySelector(selector);
      if (el && !el.hasAttribute("role")) {
        el.setAttribute("role", "region");
        el.setAttribute("aria-label", label);
      }
    }
  };
  // The Authorize box: a named dialog, a named close button, buttons named as they read.
  const modal = () => {
    const box = document.querySelector(".modal-ux");
    if (box && !box.hasAttribute("role")) {
      box.setAttribute("role", "dialog");
      box.setAttribute("aria-modal", "true");
      box.setAttribute("aria-label", "Authorize");
    }
    for (const close of document.querySelectorAll(".close-modal:not([aria-label])")) close.setAttribute("aria-label", "Close");
    for (const button of document.querySelectorAll(".modal-ux .authorize[aria-label]")) button.removeAttribute("aria-label");
  };
  const both = () => { name(); mark(); modal(); };
  both();
  new MutationObserver(both).observe(document.getElementById("reference"), { childList: true, subtree: true });
}
