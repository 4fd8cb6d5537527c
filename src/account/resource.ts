// Credit transactions: every credit movement of the workspace (contract 2.2), guarded by the
// `usage` scope group. An immutable ledger: read-only. The contract names the id `_id`; Prisma
// field names cannot start with an underscore, so the API field is transaction_id.
import { defineResource } from "../registry/resource.js";

export const creditTransactions = defineResource({
  name: "credit_transactions",
  kind: "credit_transaction",
  model: "CreditTransaction",
  idField: "_id",
  idColumn: "transaction_id",
  idPrefix: "credit_transaction",
  scopeGroup: "usage",
  createdAtField: "created_at",
  routes: ["list", "get"],
  sortable: ["created_at", "amount"],
  filterable: ["action_type", "amount", "created_at"],
  searchable: [],
  heavy: ["metadata"],
  // The answer envelope's own request_id describes the request reading the ledger.
  fieldAliases: { request_id: "caused_by_request_id" },
  internal: ["workspace_id"],
  serviceSet: ["created_at", "amount", "balance_after", "action_type"],
  description: "A credit movement of the workspace; negative amounts are spending.",
});
