// Every resolver of one request sees the same path object for the same response path.
//
// graphql-js builds each link of a response path once and hands it to every field beneath it;
// graphql-jit (src/graphql-endpoint/compiled-execution.ts) writes the whole path as a fresh object literal
// at every resolver call. @pothos/plugin-prisma finds the query plan a parent field recorded by
// walking `info.path.prev` and looking each link up by identity, so under graphql-jit a nested
// list never found its parent's plan and loaded itself again (Folder.videos took 6 statements
// instead of 4). This plugin hands the wrapped resolvers a path interned per request: one link per
// (parent link, key), as graphql-js would have built it. Columns the loadedColumns plugin answers
// from the row never get here, which is why it comes after that plugin; nor do leaf fields
// plugin-prisma does not load (`object`, computed strings): nothing sits beneath them to look a
// plan up, and they record none.
import SchemaBuilder, { BasePlugin, type PothosOutputFieldConfig, type PothosOutputFieldType, type SchemaTypes } from "@pothos/core";
import type { GraphQLFieldResolver, GraphQLResolveInfo } from "graphql";

const pluginName = "internedPaths";

type Path = GraphQLResolveInfo["path"];

/** An interned link, holding the links interned beneath it. */
interface InternedPath {
  readonly prev: InternedPath | undefined;
  readonly key: string | number;
  readonly typename: string | undefined;
  readonly children: Map<string | number, InternedPath>;
}

/** Per request (keyed by its context): the interned root links. */
const roots = new WeakMap<object, Map<string | number, InternedPath>>();

function intern(children: Map<string | number, InternedPath>, prev: InternedPath | undefined, path: Path): InternedPath {
  let link = children.get(path.key);
  if (!link) children.set(path.key, (link = { prev, key: path.key, typename: path.typename, children: new Map() }));
  return link;
}

/** The request's one link for `path`, built on first sight. */
export function internedPath(context: object, path: Path): Path {
  let top = roots.get(context);
  if (!top) roots.set(context, (top = new Map<string | number, InternedPath>()));
  return internWithin(top, path);
}

function internWithin(top: Map<string | number, InternedPath>, path: Path): InternedPath {
  if (!path.prev) return intern(top, undefined, path);
  const prev = internWithin(top, path.prev);
  return intern(prev.children, prev, path);
}

/** Set by plugin-prisma on a field it loads through its query plans (a relation, a `select`). */
const PRISMA_SELECT = "pothosPrismaSelect";

function isLeaf<Types extends SchemaTypes>(type: PothosOutputFieldType<Types>): boolean {
  const named = type.kind === "List" ? type.type : type;
  return named.kind === "Scalar" || named.kind === "Enum";
}

export class InternedPathsPlugin<Types extends SchemaTypes> extends BasePlugin<Types> {
  override wrapResolve(resolver: GraphQLFieldResolver<unknown, Types["Context"], object>, fieldConfig: PothosOutputFieldConfig<Types>): GraphQLFieldResolver<unknown, Types["Context"], object> {
    if (isLeaf(fieldConfig.type) && !fieldConfig.extensions?.[PRISMA_SELECT]) return resolver;
    return (parent, args, context, info) => {
      // Both executors build a fresh info object per resolver call, so it can take the interned path.
      (info as { path: Path }).path = internedPath(context, info.path);
      return resolver(parent, args, context, info);
    };
  }
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  export namespace PothosSchemaTypes {
    export interface Plugins<Types extends SchemaTypes> {
      internedPaths: InternedPathsPlugin<Types>;
    }
  }
}

SchemaBuilder.registerPlugin(pluginName, InternedPathsPlugin);

export default pluginName;
