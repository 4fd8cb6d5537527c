// The frame of the service's own documentation pages: no script, one inline style, links to the
// other pages. Nothing is loaded from another host.

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

const STYLE = `
body { font: 15px/1.5 system-ui, sans-serif; margin: 0; color: #1d2330; }
header { background: #1d2330; padding: 0.6rem 1.5rem; }
header a { color: #fff; margin-right: 1.5rem; text-decoration: none; }
header a:first-child { font-weight: 600; }
main { max-width: 56rem; margin: 0 auto; padding: 1rem 1.5rem 4rem; }
code { font: 0.9em ui-monospace, monospace; background: #f1f3f7; padding: 0 0.25em; border-radius: 3px; }
ul.codes { columns: 3; list-style: none; padding: 0; }
section { border-top: 1px solid #dde1ea; padding-top: 0.5rem; }
section:target { background: #fff8dc; }
h2 a { color: inherit; text-decoration: none; }
dl { display: grid; grid-template-columns: 9rem 1fr; gap: 0.25rem 1rem; }
dt { font-weight: 600; }
dd { margin: 0; }
`;

/** The links every documentation page shows at its top. */
export const DOCS_NAV = `<a href="/docs">Cutroom API reference</a><a href="/docs/api/errors">Error codes</a><a href="/graphql">GraphiQL</a><a href="/docs/openapi.json">openapi.json</a>`;

export function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<header>${DOCS_NAV}</header>
<main>
${body}
</main>
</body>
</html>
`;
}
