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
    deepLinking: true,
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
});
