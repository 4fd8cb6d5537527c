// The platforms a post can go out on, by the account's `platform`.
import type { PlatformAdapter } from "./types.js";
import { tiktok } from "./tiktok.js";
import { youtube } from "./youtube.js";

export const PLATFORMS: Readonly<Record<string, PlatformAdapter>> = { youtube, tiktok };
