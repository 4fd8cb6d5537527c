// Input fields the tools family's actions share (catalog 4.5).
import { z } from "zod";
import { BASE64_TEXT } from "../actions/catalog/define.js";

/** A MIME type such as `image/png`. */
export const mediaType = () => z.string().regex(/^[a-z]+\/[a-z0-9.+-]+$/i).max(100);
export const base64 = () => z.string().min(1).max(BASE64_TEXT);

/** Sizes image models take (OpenAI-compatible servers accept these). */
export const IMAGE_SIZES = ["256x256", "512x512", "1024x1024", "1024x1536", "1536x1024", "1024x1792", "1792x1024"] as const;
export const IMAGE_QUALITIES = ["auto", "low", "medium", "high", "standard", "hd"] as const;
