// Where a layer's media comes from (`src` of image, video and audio layers): today an http(s) URL,
// fetched through the outbound URL guard when the video renders (src/renders/media.ts).
import { z } from "zod";

export const mediaUrl = z.url({ protocol: /^https?$/, error: "Expected an http or https URL." }).max(2048);
