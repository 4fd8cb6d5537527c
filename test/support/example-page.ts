// The article page examples read (ExampleSetup.page(), for actions such as scripts.add_source):
// served on loopback by the test files that run examples, which the URL guard allows there.
export const EXAMPLE_PAGE_PATH = "/article.html";

/** A sentence the page holds, word for word. */
export const EXAMPLE_PAGE_PASSAGE = "Cats purr at a frequency between 25 and 150 hertz.";

export const EXAMPLE_PAGE_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Why cats purr</title></head>
<body><nav><a href="/">Home</a></nav>
<main><article><h1>Why cats purr</h1>
<p>${EXAMPLE_PAGE_PASSAGE} Researchers have long argued about why they do it, and the answer seems to be that purring serves more than one purpose at once.</p>
<p>Mother cats purr to guide their kittens, and cats in pain purr too, which suggests the sound soothes the animal making it as much as it reassures anyone listening.</p>
</article></main></body></html>`;
