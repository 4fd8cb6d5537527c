// Prefixed random identifiers (vid_..., fld_...): the prefix tells a reader what an id names,
// and 22 base62 characters (~131 bits) make ids unguessable.
import { customAlphabet } from "nanoid";

const randomPart = customAlphabet("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz", 22);

export const ID_PREFIXES = {
  workspace: "ws",
  api_key: "key",
  video: "vid",
  folder: "fld",
  event: "evt",
  request: "req",
  script: "scr",
  asset: "ast",
  character: "chr",
  character_tag: "tag",
  agent: "agt",
  agent_execution: "aex",
  flow: "flw",
  flow_execution: "fex",
  slideshow: "sld",
  template: "tpl",
  video_style: "sty",
  smart_group_config: "sgc",
  custom_video_type: "cvt",
  generation: "gen",
  music_generation: "mus",
  scheduled_post: "post",
  social_account: "soc",
  render: "rnd",
  background: "bg",
  voice: "vc",
  credit_transaction: "txn",
  playground_generation: "pgn",
  webhook_endpoint: "we",
  webhook_delivery: "dlv",
  webhook_attempt: "att",
  operation: "op",
  script_paragraph: "par",
  script_chapter: "chp",
  script_speaker: "spk",
  script_snapshot: "snap",
  script_edit: "edit",
  script_note: "note",
  script_source: "src",
  script_snippet: "snip",
  style_rule: "rule",
  script_take: "take",
  script_clip: "clip",
  app_screenshot_project: "asp",
  app_screen: "scn",
  voice_project: "vpj",
  faceless_scene: "fsc",
  smart_group: "sgp",
  slide: "sli",
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

export function newId(kind: IdKind): string {
  return `${ID_PREFIXES[kind]}_${randomPart()}`;
}
