// Characters (recurring characters with visual and voice configuration) and the tags that
// organise them (contract 2.2). Both are guarded by the `characters` scope group.
import { z } from "zod";
import { defineResource } from "../registry/resource.js";
import { linkedIdsField } from "../resources/linked-ids.js";

export const characters = defineResource({
  name: "characters",
  kind: "character",
  model: "Character",
  idField: "character_id",
  idPrefix: "character",
  scopeGroup: "characters",
  createdAtField: "created_at",
  routes: ["list", "get", "create", "update", "delete"],
  bulk: true,
  sortable: ["created_at", "updated_at", "character_name"],
  filterable: ["character_tags", "created_at"],
  searchable: ["character_name", "character_description"],
  heavy: ["media"],
  internal: ["workspace_id"],
  serviceSet: ["created_at", "updated_at"],
  fieldRules: {
    character_name: z.string().trim().min(1).max(200),
    character_description: z.string().max(10_000),
    reference_image_url: z.url({ protocol: /^https?$/ }).max(4096),
    voice_ref: z.string().max(200),
  },
  virtualFields: {
    character_tags: linkedIdsField({
      description: "Tags of this character, in the order they were given.",
      links: "tag_links",
      linkModel: "CharacterTagLink",
      ownerColumn: "character_id",
      targetColumn: "tag_id",
      targetModel: "CharacterTag",
      targetKind: "character tag",
    }),
  },
  children: { tags: { resource: "character_tags", relation: "tag_links", through: "tag" } },
  description: "A recurring character with visual and voice configuration.",
});

export const characterTags = defineResource({
  name: "character_tags",
  kind: "character_tag",
  model: "CharacterTag",
  idField: "tag_id",
  idPrefix: "character_tag",
  scopeGroup: "characters",
  createdAtField: "created_at",
  routes: ["list", "get", "create", "update", "delete"],
  bulk: true,
  sortable: ["created_at", "tag_name"],
  filterable: ["tag_color", "created_at"],
  searchable: ["tag_name"],
  heavy: [],
  internal: ["workspace_id"],
  serviceSet: ["created_at", "updated_at"],
  fieldRules: {
    tag_name: z.string().trim().min(1).max(100),
    tag_color: z.string().max(32),
  },
  description: "A tag organising characters.",
});
