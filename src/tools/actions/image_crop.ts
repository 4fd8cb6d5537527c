// tools.image_crop (catalog 4.5): crops or reframes an inline base64 image (sharp). It fetches no
// URL, keeps nothing in the asset library and touches no existing asset: the answer is the new
// image — on REST the bytes themselves (image/png, image/jpeg or image/webp), on GraphQL a signed
// link (docs/actions.md, "Binary answers").
//
// `metadata` says how: a crop box in pixels (`x`, `y`, `width`, `height`), or an `aspect` (`16:9`)
// to cut from the centre; then optionally a size to fit (`resize_width` / `resize_height`) and an
// output `format`. Nothing in it: the image is re-encoded as it is.
import sharp from "sharp";
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { binaryAnswer, binaryFileOutput } from "../../actions/framework/binary.js";
import { base64, mediaType } from "../inputs.js";
import { imageFromBase64 } from "../../providers/user-image.js";
import { validationFailed } from "../../validation/issues.js";

const pixels = () => z.number().int().min(0).max(20_000);
const FORMATS = { png: "image/png", jpeg: "image/jpeg", webp: "image/webp" } as const;
type Format = keyof typeof FORMATS;

const cropMetadata = z
  .strictObject({
    x: pixels().optional(),
    y: pixels().optional(),
    width: pixels().min(1).optional(),
    height: pixels().min(1).optional(),
    aspect: z.string().regex(/^\d{1,3}:\d{1,3}$/, "An aspect is two whole numbers, e.g. 16:9.").optional(),
    resize_width: pixels().min(1).max(8192).optional(),
    resize_height: pixels().min(1).max(8192).optional(),
    format: z.enum(["png", "jpeg", "webp"]).optional(),
  })
  .refine((value) => !(value.aspect && (value.width !== undefined || value.height !== undefined)), { message: "Give a crop box or an aspect, not both.", path: ["aspect"] });

/** The crop box of an image, from the metadata: a box, the largest centred box of an aspect, or all of it. */
function cropBox(width: number, height: number, metadata: z.output<typeof cropMetadata>) {
  if (metadata.aspect) {
    const [across, down] = metadata.aspect.split(":").map(Number) as [number, number];
    if (across === 0 || down === 0) throw validationFailed([{ path: "metadata.aspect", message: "Neither side of an aspect may be 0.", type: "any.invalid" }]);
    const boxWidth = Math.min(width, Math.floor((height * across) / down));
    const boxHeight = Math.min(height, Math.floor((width * down) / across));
    return { left: Math.floor((width - boxWidth) / 2), top: Math.floor((height - boxHeight) / 2), width: boxWidth, height: boxHeight };
  }
  const left = metadata.x ?? 0;
  const top = metadata.y ?? 0;
  const box = { left, top, width: metadata.width ?? width - left, height: metadata.height ?? height - top };
  if (box.width < 1 || box.height < 1 || left + box.width > width || top + box.height > height) {
    throw validationFailed([{ path: "metadata", message: `The crop box ${box.width}x${box.height} at ${left},${top} does not fit in the ${width}x${height} image.`, type: "any.invalid" }]);
  }
  return box;
}

export default defineAction({
  name: "tools.image_crop",
  method: "POST",
  scopes: ["assets:write"],
  credits: false,
  input: z.strictObject({
    image_base64: base64(),
    content_type: mediaType().optional(),
    metadata: cropMetadata.optional(),
  }),
  weight: 1,
  purpose: "crop or reframe an inline base64 image; does not fetch a URL, upload bytes or crop an existing asset",
  binary: true,
  output: binaryFileOutput,
  async example(setup) {
    return { image_base64: (await setup.image()).base64, metadata: { aspect: "1:1" } };
  },
  async run({ graphql }, input) {
    const image = imageFromBase64(input.image_base64);
    if (input.content_type && input.content_type.toLowerCase() !== image.mediaType) {
      throw validationFailed([{ path: "content_type", message: `The image is ${image.mediaType}, not ${input.content_type}.`, type: "any.only" }]);
    }
    const metadata = input.metadata ?? {};
    const source = sharp(image.data);
    const { width = 0, height = 0 } = await source.metadata();
    let pipeline = source.extract(cropBox(width, height, metadata));
    if (metadata.resize_width || metadata.resize_height) pipeline = pipeline.resize({ width: metadata.resize_width, height: metadata.resize_height, fit: "inside" });
    const format: Format = metadata.format ?? (image.mediaType === "image/jpeg" ? "jpeg" : image.mediaType === "image/webp" ? "webp" : "png");
    const { data, info } = await pipeline.toFormat(format).toBuffer({ resolveWithObject: true });
    return binaryAnswer(graphql, { data: new Uint8Array(data), contentType: FORMATS[format], filename: `crop.${format === "jpeg" ? "jpg" : format}`, width: info.width, height: info.height });
  },
});
