// A resource is declared once (contract table 2.2 plus what the service adds); everything else
// (GraphQL types and fields, REST routes, OpenAPI, scope checks, validation, record events) is
// derived from the declaration by src/resources/ and rest/.
import type { z } from "zod";
import type { IdKind } from "../ids.js";
import type { ScopeGroup } from "../auth/scopes.js";
import type { Tx } from "../db/transaction.js";
import type { GraphQLContext } from "../graphql/context.js";

export type RouteKind = "list" | "get" | "create" | "update" | "delete";

/** A field computed from a relation rather than stored in a column (e.g. a video's folder_ids). */
export interface VirtualField {
  /** GraphQL output type of the field. */
  graphqlType: "StringList" | "JSON";
  description: string;
  /** Prisma selection that loads what resolve needs. */
  select: Record<string, unknown>;
  resolve(row: Record<string, unknown>): unknown;
  /** Validation of the field when it is written; absent means read-only. */
  input?: z.ZodType;
  /** Prisma condition for a filter operator on this field (makes the field filterable). */
  filter?(operator: "eq" | "ne" | "in" | "nin" | "exists" | "contains" | "gt" | "gte" | "lt" | "lte" | "starts_with", value: unknown): Record<string, unknown>;
  /** Writes the relation for a record, inside the request's transaction. */
  write?(tx: Tx, args: { workspaceId: string; recordId: string; value: unknown; path: string }): Promise<void>;
}

/** A column naming a record of another resource, e.g. a render's video_id. */
export interface ResourceReference {
  /** The referenced resource's name (`videos`). */
  resource: string;
  /** The Prisma relation field on this model; also the GraphQL field exposing the record. */
  relation: string;
  /** Extra condition the referenced record must meet (e.g. a folder's scope). */
  where?: Readonly<Record<string, unknown>>;
}

/**
 * Records of another resource that belong to a record of this one (a video's renders), served in
 * GraphQL as a paged list under it, loaded with the parent's own query (src/resources/relations.ts).
 */
export interface ResourceChildren {
  /** The child resource's name (`renders`). */
  resource: string;
  /** The Prisma relation on this model: to the children (`renders`), or to links to them (`video_links`). */
  relation: string;
  /** With a link table: the relation on the link model that reaches the child (`video`). */
  through?: string;
}

/** What a resource's beforeWrite hook is told about one write. */
export interface RecordWrite {
  mode: "create" | "update" | "delete";
  /** The record's id (on create, the one it is about to get). */
  id: string;
  input?: Record<string, unknown>;
  existing?: Record<string, unknown>;
  /** The caller: its workspace, key and services. */
  context: GraphQLContext;
  /** The action writing the record through createRecordIn/updateRecordIn; absent on the resource's own routes. */
  action?: string;
  /** Work to run once the write committed (live mode only), e.g. queueing a job. */
  afterCommit(this: void, work: () => Promise<unknown>): void;
}

export interface ResourceDefinition {
  /** Path segment and plural name: `videos`. */
  name: string;
  /** `object` of a single record and the `<kind>.created` event family: `video`. */
  kind: string;
  /** Prisma model, and the GraphQL type name unless typeName says otherwise: `Video`. */
  model: string;
  /** GraphQL type name when it differs from the model (OutboxEvent is served as Event). */
  typeName?: string;
  /** The id as the API names it (table 2.2), in paths, bodies and GraphQL. */
  idField: string;
  /** The Prisma field holding the id, when the API name is not a legal Prisma name (`_id`). */
  idColumn?: string;
  /**
   * API names of read-only columns whose own names the answer envelope uses (`request_id`,
   * `livemode`): an event's request_id is shown as caused_by_request_id. Not for columns that
   * are sorted, filtered or written.
   */
  fieldAliases?: Readonly<Record<string, string>>;
  idPrefix: IdKind;
  scopeGroup: ScopeGroup;
  /** Column holding the creation time (sorting default, created_after/created_before). */
  createdAtField: string;
  routes: readonly RouteKind[];
  /** POST /{id} accepted as an alias of PATCH /{id} (videos and folders). */
  postAlias?: boolean;
  /**
   * POST /{resource}/bulk (contract 4.4): offered by every resource of table 2.2 that has create,
   * update or delete routes (test/resources-registry.test.ts holds the rule). Platform resources
   * (API keys, webhooks) have no bulk: a key's or endpoint's secret is shown once, in its own answer.
   */
  bulk?: boolean;
  sortable: readonly string[];
  filterable: readonly string[];
  searchable: readonly string[];
  /** Left out of lists unless asked for with `expand`. */
  heavy: readonly string[];
  /** Columns the API never shows (ownership). */
  internal: readonly string[];
  /** Shown but set by the service (identity, ownership, timestamps); ignored when sent. */
  serviceSet: readonly string[];
  /** Extra rules for writable fields beyond what their column type implies. */
  fieldRules?: Readonly<Record<string, z.ZodType>>;
  virtualFields?: Readonly<Record<string, VirtualField>>;
  /**
   * Columns naming records of other resources: on write the record must exist in the caller's
   * workspace (422 otherwise); GraphQL exposes it as a relation guarded by the target's read scope.
   */
  references?: Readonly<Record<string, ResourceReference>>;
  /** GraphQL fields listing this record's children (Video.renders, Folder.videos). */
  children?: Readonly<Record<string, ResourceChildren>>;
  /**
   * `shared`: rows with no workspace form a global shelf every workspace reads (backgrounds,
   * voices); a workspace still owns and alone can change its own rows. Default `workspace`.
   */
  visibility?: "workspace" | "shared";
  /**
   * GraphQL-only fields beyond the record's own (e.g. a webhook endpoint's `secret`, present only
   * in the answer that reveals it). REST record selections never carry them.
   */
  graphqlExtras?: Readonly<Record<string, { description: string; resolve(row: Record<string, unknown>): string | null }>>;
  /**
   * Checks a write against the record as a whole, inside the write's transaction, after the
   * fields passed their own rules: a flow's graph, a scheduled post that already went out (409).
   * `existing` is the stored row (absent on create); `input` the accepted fields (absent on delete).
   * It may return service-set columns to store with the write (a scheduled post's platform).
   */
  beforeWrite?(tx: Tx, write: RecordWrite): Promise<void | Record<string, unknown>>;
  /** Fills service-set columns on create (e.g. the creating key as owner). */
  stampOnCreate?(auth: { keyId: string }): Record<string, unknown>;
  description: string;
  /** A resource of the platform itself, beyond contract table 2.2 (request log, API keys, webhooks, events). */
  platform?: boolean;
}

export function defineResource<const R extends ResourceDefinition>(definition: R): R {
  return definition;
}
