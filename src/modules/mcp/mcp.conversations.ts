// Conversations with the `ask` tool, one row each, owned by a user of an org. The state is bounded:
// the last few turns (for the model's context) and the last entity of each kind (for follow-ups).
import { perDeps, type Deps } from "../../deps.ts";
import type { Principal } from "../identity/auth.macro.ts";
import { isUuid, newId } from "../../lib/ids.ts";
import type { AskCall, Entities } from "../../engines/ask-engine.ts";

export type Turn = { question: string; answer: string; functions: string[]; at: string };
/** `last_call`: the last operation and its arguments, so a follow-up can narrow or re-order it ("only the fintech ones"). */
export type ConversationState = { turns: Turn[]; entities: Entities; last_function: string | null; last_call: AskCall | null };

export const MAX_TURNS = 8;
const MAX_ANSWER_CHARS = 1500;
/** Conversations kept per user; older ones are dropped when a new one starts. */
const MAX_CONVERSATIONS_PER_USER = 200;

export const conversationsService = perDeps((deps: Deps) => {
  const sqlite = deps.db.$client;
  const byId = sqlite.query<{ state: string }, [string, string, string]>("SELECT state FROM mcp_conversations WHERE id = ? AND org_id = ? AND user_id = ?");
  const insert = sqlite.query("INSERT INTO mcp_conversations (id, org_id, user_id, state, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)");
  const update = sqlite.query("UPDATE mcp_conversations SET state = ?, updated_at = ? WHERE id = ? AND org_id = ? AND user_id = ?");
  const prune = sqlite.query(
    `DELETE FROM mcp_conversations WHERE user_id = $user AND id NOT IN (
       SELECT id FROM mcp_conversations WHERE user_id = $user ORDER BY updated_at DESC LIMIT ${MAX_CONVERSATIONS_PER_USER})`,
  );

  /** The state of the principal's own conversation; null for an unknown id or anyone else's. */
  function load(principal: Principal, id: string): ConversationState | null {
    if (!isUuid(id)) return null;
    const row = byId.get(id.toLowerCase(), principal.orgId, principal.userId);
    if (!row) return null;
    try {
      const state = JSON.parse(row.state) as Partial<ConversationState>;
      return { turns: state.turns ?? [], entities: state.entities ?? {}, last_function: state.last_function ?? null, last_call: state.last_call ?? null };
    } catch {
      return { turns: [], entities: {}, last_function: null, last_call: null };
    }
  }

  function start(principal: Principal): { id: string; state: ConversationState } {
    const id = newId();
    const now = deps.clock.now().toISOString();
    const state: ConversationState = { turns: [], entities: {}, last_function: null, last_call: null };
    sqlite.transaction(() => {
      insert.run(id, principal.orgId, principal.userId, JSON.stringify(state), now, now);
      prune.run({ user: principal.userId });
    })();
    return { id, state };
  }

  /** Adds a turn (keeping the last MAX_TURNS) and merges what it was about. */
  function record(principal: Principal, id: string, state: ConversationState, turn: Turn, entities: Entities, lastCall: AskCall | null) {
    const next: ConversationState = {
      turns: [...state.turns, { ...turn, answer: turn.answer.slice(0, MAX_ANSWER_CHARS) }].slice(-MAX_TURNS),
      entities: { ...state.entities, ...entities },
      last_function: lastCall?.fn ?? state.last_function,
      last_call: lastCall ?? state.last_call,
    };
    update.run(JSON.stringify(next), deps.clock.now().toISOString(), id, principal.orgId, principal.userId);
    return next;
  }

  return { load, start, record };
});
