// A standard cast for auth tests: two organizations, a few users, and a key for every state a
// key can be in. Built on the real services, on the test app's own database.
import { eq } from "drizzle-orm";
import type { Deps } from "../../src/deps.ts";
import type { Principal } from "../../src/modules/identity/auth.macro.ts";
import { apiKeys } from "../../src/modules/identity/keys.tables.ts";
import { apiKeysService, type CreateKeyInput } from "../../src/modules/identity/keys.service.ts";
import { newSecret } from "../../src/modules/identity/key-secrets.ts";
import { orgsService } from "../../src/modules/identity/orgs.service.ts";

export type FixtureKey = { id: string; secret: string };

export function seedIdentity(deps: Deps) {
  const orgs = orgsService(deps);
  const keys = apiKeysService(deps);
  const acme = orgs.createOrg("Acme Ventures");
  const globex = orgs.createOrg("Globex Capital");
  const alice = orgs.createUser({ orgId: acme.id, email: "alice@acme.vc", name: "Alice Archer", shareNetwork: true, isAdmin: true });
  const bob = orgs.createUser({ orgId: acme.id, email: "bob@acme.vc", name: "Bob Baker" });
  const carol = orgs.createUser({ orgId: globex.id, email: "carol@globex.vc", name: "Carol Chen", shareNetwork: true });
  const nomad = orgs.createUser({ orgId: null, email: "nomad@example.com", name: "Nomad Noorg" });

  const key = (input: CreateKeyInput): FixtureKey => {
    const k = keys.create(input);
    return { id: k.keyId, secret: k.secret };
  };
  const expired = key({ userId: alice.id, scope: "write", name: "expired" });
  // The service refuses a past expiry, so age this one directly.
  deps.db.update(apiKeys).set({ expiresAt: new Date(deps.clock.now().getTime() - 1000).toISOString() }).where(eq(apiKeys.id, expired.id)).run();
  const revoked = key({ userId: alice.id, scope: "write", name: "revoked" });
  keys.revoke(revoked.id);

  const fixture = {
    orgs: { acme, globex },
    users: { alice, bob, carol, nomad },
    keys: {
      read: key({ userId: alice.id, scope: "read", name: "alice read" }),
      write: key({ userId: alice.id, scope: "write", name: "alice write" }),
      bobRead: key({ userId: bob.id, scope: "read", name: "bob read" }),
      otherOrgWrite: key({ userId: carol.id, scope: "write", name: "carol write" }),
      noOrg: key({ userId: nomad.id, scope: "write", name: "nomad write" }),
      expired,
      revoked,
      /** Well formed, checksum right, never issued. */
      unknown: { id: "", secret: newSecret().secret },
    },
  };
  return fixture;
}

export type Fixture = ReturnType<typeof seedIdentity>;

/** The principal a fixture key's secret authenticates as (for service-level tests). */
export function principalOf(deps: Deps, secret: string): Principal {
  const v = apiKeysService(deps).verify(secret);
  if (v.status !== "VALID" || !v.key.orgId) throw new Error("fixture key is not a valid key of an organization");
  return { ...v.key, orgId: v.key.orgId };
}
