// The usage lines of `dealgraph admin grant` (kept apart: `dealgraph help` loads no OAuth code).
export const GRANT_USAGE = [
  "dealgraph admin grant list [--user USER_ID | --org ORG_ID] [--active] [--json]   (MCP sign-in: connected apps)",
  "dealgraph admin grant revoke GRANT_ID [--json]",
];
