// Every resource the API serves, in the order of contract table 2.2. Adding one is adding its
// declaration here.
import type { ResourceDefinition } from "./resource.js";
import { videos } from "../videos/resource.js";
import { folders } from "../folders/resource.js";
import { scripts } from "../scripts/resource.js";
import { assets } from "../assets/resource.js";
import { characters, characterTags } from "../characters/resource.js";
import { agents, agentExecutions } from "../agents/resource.js";
import { flows, flowExecutions } from "../flows/resource.js";
import { slideshows } from "../slideshows/resource.js";
import { templates, videoStyles, smartGroupConfigs, customVideoTypes } from "../templates/resource.js";
import { generations, playgroundGenerations } from "../generations/resource.js";
import { music } from "../music/resource.js";
import { scheduledPosts, socialAccounts } from "../publishing/resource.js";
import { renders } from "../renders/resource.js";
import { backgrounds } from "../backgrounds/resource.js";
import { voices } from "../voices/resource.js";
import { creditTransactions } from "../account/resource.js";
import { requestLogs } from "../logs/resource.js";
import { apiKeys } from "../api-keys/resource.js";
import { webhookEndpoints, webhookDeliveries } from "../webhooks/resource.js";
import { events } from "../events/resource.js";

export const RESOURCES: readonly ResourceDefinition[] = [
  videos,
  scripts,
  folders,
  assets,
  characters,
  agents,
  flows,
  slideshows,
  templates,
  videoStyles,
  smartGroupConfigs,
  customVideoTypes,
  generations,
  music,
  scheduledPosts,
  socialAccounts,
  renders,
  backgrounds,
  voices,
  characterTags,
  agentExecutions,
  flowExecutions,
  creditTransactions,
  playgroundGenerations,
];

/** Resources of the platform itself, beyond table 2.2 (request log, API keys, webhooks, events). */
const PLATFORM_RESOURCES: readonly ResourceDefinition[] = [requestLogs, apiKeys, webhookEndpoints, webhookDeliveries, events];

/** Everything served: GraphQL types and fields, REST routes, OpenAPI, discovery. */
export const SERVED_RESOURCES: readonly ResourceDefinition[] = [...RESOURCES, ...PLATFORM_RESOURCES];

const RESOURCES_BY_NAME = new Map(SERVED_RESOURCES.map((resource) => [resource.name, resource]));

export function resourceByName(name: string): ResourceDefinition | undefined {
  return RESOURCES_BY_NAME.get(name);
}
