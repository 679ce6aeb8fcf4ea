// Starts `rules lsp` for the YAML files of a ruleset (routines/, rules/, templates/,
// scenarios/) through Microsoft's vscode-languageclient. Build: see docs/EDITORS.md.
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const command = vscode.workspace.getConfiguration("operatorRules").get("path") || "rules";
  const server = { command, args: ["lsp"] };
  client = new LanguageClient(
    "operatorRules",
    "Operator rules",
    { run: server, debug: server },
    {
      documentSelector: ["routines", "rules", "templates", "scenarios"].map((folder) => ({
        scheme: "file",
        language: "yaml",
        pattern: `**/${folder}/*.{yaml,yml}`,
      })),
    }
  );
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
