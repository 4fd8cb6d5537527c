/** Who is calling, once the key has been checked. */
export interface AuthContext {
  keyId: string;
  workspaceId: string;
  scopes: readonly string[];
  /** false for sk_test_ keys: the request runs fully but writes nothing. */
  livemode: boolean;
}
