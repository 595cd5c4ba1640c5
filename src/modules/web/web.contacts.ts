// The contacts page's read: the user's own relationships, searched by name or email address, with
// the keep-in-touch settings the forms edit. The network service reads them; every write goes
// through networkSignals.
import type { Deps } from "../../deps.ts";
import { networkService, type OwnContact } from "../network/network.service.ts";

export type ContactRow = OwnContact;

export function searchContacts(deps: Deps, userId: string, input: { q: string; offset: number; limit: number }) {
  return networkService(deps).searchOwnContacts(userId, input);
}

export function contactCount(deps: Deps, userId: string): number {
  return networkService(deps).ownContactCount(userId);
}
