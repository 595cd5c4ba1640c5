// RFC 5322 messages for the mailbox tests: what a mail server would hold.
export type MessageSpec = {
  from: string;
  to: string | string[];
  cc?: string[];
  subject?: string;
  date: Date;
  messageId?: string | null;
  /** Extra header lines (`List-Id: <x>`...). */
  headers?: string[];
  body?: string;
};

let n = 0;

export function message(spec: MessageSpec): string {
  const id = spec.messageId === undefined ? `<m${++n}.${spec.date.getTime()}@test.example>` : spec.messageId;
  const lines = [
    `Return-Path: <${/<([^>]+)>/.exec(spec.from)?.[1] ?? spec.from}>`,
    `From: ${spec.from}`,
    `To: ${[spec.to].flat().join(", ")}`,
    ...(spec.cc?.length ? [`Cc: ${spec.cc.join(", ")}`] : []),
    `Subject: ${spec.subject ?? "Hello"}`,
    `Date: ${spec.date.toUTCString().replace("GMT", "+0000")}`,
    ...(id ? [`Message-ID: ${id}`] : []),
    "MIME-Version: 1.0",
    "Content-Type: text/plain; charset=utf-8",
    ...(spec.headers ?? []),
  ];
  return `${lines.join("\r\n")}\r\n\r\n${spec.body ?? "Hello,\r\n\r\nA message for the tests.\r\n"}`;
}

const DAY = 86_400_000;

/** A message `daysAgo` days before `now`. */
export const daysAgo = (now: Date, days: number) => new Date(now.getTime() - days * DAY);
