// The usage lines of the connection commands (kept apart: `dealgraph help` loads no connection code).
export const USAGE = {
  mailServer:
    "usage: dealgraph admin mail-server set --org ORG_ID --imap HOST[:PORT] [--imap-security tls|starttls|plain] [--caldav URL] [--ca-file PEM] [--insecure] [--json]\n" +
    "       dealgraph admin mail-server set --org ORG_ID --provider google --service-account-file KEY.json [--imap HOST[:PORT]] [--json]\n" +
    "       dealgraph admin mail-server set --org ORG_ID --provider microsoft --tenant TENANT_ID --client-id ID (--client-secret-file F | --certificate-file PEM) [--imap HOST[:PORT]] [--json]",
  connect:
    "usage: dealgraph connect mail --user USER_ID --login LOGIN [--folders A,B] [--since YYYY-MM-DD] [--json]   (password on stdin)\n" +
    "       dealgraph connect calendar --user USER_ID (--caldav URL --login LOGIN | --ics-url URL) [--json]   (CalDAV password on stdin)\n" +
    "       on a Google Workspace or Microsoft 365 organization: connect mail --user USER_ID [--login ADDRESS], connect calendar --user USER_ID (no password)",
  connections: "usage: dealgraph connections list --user USER_ID [--json] | dealgraph connections remove CONNECTION_ID [--json] | dealgraph connections ledger CONNECTION_ID [--limit N] [--offset N] [--json]",
  sync: "usage: dealgraph sync --user USER_ID [--json]",
};

export const CONNECTION_USAGE_LINES = [
  "dealgraph admin mail-server set --org ORG_ID --imap HOST[:PORT] [--imap-security tls|starttls|plain]",
  "                                [--caldav URL] [--ca-file PEM] [--insecure] [--json]",
  "dealgraph admin mail-server set --org ORG_ID --provider google --service-account-file KEY.json",
  "dealgraph admin mail-server set --org ORG_ID --provider microsoft --tenant TENANT_ID --client-id ID",
  "                                (--client-secret-file F | --certificate-file PEM)",
  "dealgraph connect mail --user USER_ID --login LOGIN [--folders A,B] [--since YYYY-MM-DD] [--json]  (password on stdin)",
  "dealgraph connect mail|calendar --user USER_ID      on a Google or Microsoft 365 organization (no password)",
  "dealgraph connect calendar --user USER_ID (--caldav URL --login LOGIN | --ics-url URL) [--json]",
  "dealgraph connections list --user USER_ID [--json]",
  "dealgraph connections remove CONNECTION_ID",
  "dealgraph connections ledger CONNECTION_ID [--limit N] [--offset N] [--json]    per sync and folder: UIDs read and how each was counted (oldest first; without --offset the latest --limit rows, default 100)",
  "dealgraph sync --user USER_ID [--json]                 one sync of the user's connections now",
];
