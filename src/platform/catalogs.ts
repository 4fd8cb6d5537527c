// Installs the catalogs the generic layers read (resources, actions) from the generated lists.
// Importing this module is what makes them available: the composition root's entry points
// (src/service.ts, src/worker.ts, the schema index, the CLIs) import it first.
import { installActions } from "../actions/catalog.js";
import { installResources } from "../registry/resources.js";
import { ACTION_LIST } from "./actions.generated.js";
import { RESOURCE_LIST } from "./resources.generated.js";

installResources(RESOURCE_LIST);
installActions(ACTION_LIST);
