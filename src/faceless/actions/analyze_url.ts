// faceless.analyze_url (catalog 4.4): a brief for a faceless video from an article or video page.
// The page is read by the `page` capability (local/readability: fetched only through the URL
// guard, main text extracted), then the text model (structured output) writes the brief: summary,
// key points, and a prompt faceless.generate_story takes as it is. Writes nothing. A refused or
// unreadable URL is 400 invalid_request at `url`, a page whose server fails or stalls 502
// upstream_error; a test key gets a quote (nothing fetched).
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { url } from "../../actions/catalog/define.js";
import { pageReadFailure } from "../../providers/errors.js";

/** Characters of the page handed to the model. */
const PAGE_CHARACTERS = 24_000;

const brief = z.object({
  title: z.string().min(1).max(200).describe("A title for the video."),
  summary: z.string().min(1).max(2_000).describe("What the page says, in a few sentences."),
  key_points: z.array(z.string().min(1).max(500)).min(1).max(10),
  suggested_prompt: z.string().min(1).max(2_000).describe("A prompt for faceless.generate_story."),
});

export default defineAction({
  name: "faceless.analyze_url",
  method: "POST",
  scopes: ["videos:execute"],
  credits: true,
  input: z.strictObject({ url: url() }),
  price: { credits: 2, per: "call" },
  weight: 2,
  purpose: "extract a brief from an article or video URL",
  mode: "model",
  uses: ["page", "text"],
  output: z.object({
    object: z.literal("faceless_brief"),
    url: z.string(),
    page_title: z.string(),
    characters_read: z.number().int(),
    ...brief.shape,
  }),
  async example(setup) {
    return { url: (await setup.page()).url };
  },
  async run({ providers }, input) {
    // The same page failure is the same code as in every action that reads a page (src/providers/errors.ts).
    const page = await providers
      .get("page")
      .read(input.url)
      .catch((error: unknown) => Promise.reject(pageReadFailure(error, "url")));
    const answer = await providers.get("text").generateObject({
      system: "You turn a web page into the brief of a short faceless video (a narrator over visuals): what it is about, the points worth keeping, and one prompt a story writer can work from. Use only what the page says.",
      prompt: [`Page title: ${page.title}`, `Page text:\n${page.text.slice(0, PAGE_CHARACTERS)}`].join("\n"),
      schema: brief,
      schemaName: "faceless_brief",
    });
    return { object: "faceless_brief" as const, url: page.url, page_title: page.title, characters_read: page.text.length, ...answer.object };
  },
});
