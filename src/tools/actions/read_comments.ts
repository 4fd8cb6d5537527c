// tools.read_comments (catalog 4.5): the comments of a public forum post (catalog rule 4.1.10:
// `forum` stands in for the site). The thread is read through the URL guard by the adapter of its
// format (src/tools/sites/): a JSON listing at `/comments/<id>.json` or a Discourse topic at
// `/t/<id>.json`. At most `comment_limit` comments (25 by default), in the site's order, depth
// first, each with the site's own id. It reads and makes nothing: 1 credit, no generations row.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { integer, url } from "../../actions/catalog/define.js";
import { siteCommentShape, siteFormat, sitePostShape } from "../schemas.js";
import { readForumThread } from "../sites/index.js";

export const DEFAULT_COMMENT_LIMIT = 25;

export default defineAction({
  name: "tools.read_comments",
  method: "POST",
  scopes: ["generations:execute"],
  credits: true,
  input: z.strictObject({
    post_url: url(),
    comment_limit: integer(1, 100).optional(),
  }),
  price: { credits: 1, per: "call" },
  weight: 2,
  purpose: "fetch the comments of a social-network post",
  mode: "model",
  output: z.object({
    object: z.literal("forum_comments"),
    format: siteFormat,
    post: sitePostShape,
    comments: z.array(siteCommentShape),
  }),
  async example(setup) {
    return { post_url: (await setup.site()).forum_url, comment_limit: 5 };
  },
  async run({ graphql, reference }, input) {
    const { format, result } = await readForumThread(graphql.services.outbound, input.post_url, "post_url", input.comment_limit ?? DEFAULT_COMMENT_LIMIT);
    reference(result.post.post_id);
    return { object: "forum_comments" as const, format, post: result.post, comments: result.comments };
  },
});
