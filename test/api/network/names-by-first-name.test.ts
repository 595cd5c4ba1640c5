// networkService.namesByFirstName: the pooled people (the key user and teammates who share) whose
// name is a first name or starts with it, distinct and sorted; how the `ask` tool resolves "Dana",
// or asks which Dana. A teammate who does not share, and another org, are not in the pool.
import { expect, test } from "bun:test";
import { networkService } from "../../../src/modules/network/network.service.ts";
import { seededApp } from "../../helpers/app.ts";
import { principalOf } from "../../helpers/fixtures.ts";
import { knows, thread } from "../../helpers/network.ts";

test("the pooled names of a first name; nothing for a full name, a blank or a name nobody has", () => {
  const { t, f } = seededApp();
  knows(t.deps, f.users.alice.id, { email: "dana@acme.com", name: "Dana Scully" }, thread(3, 5, 2));
  knows(t.deps, f.users.alice.id, { email: "dana@whitaker.io", name: "Dana Whitaker" }, thread(3, 5, 2));
  knows(t.deps, f.users.alice.id, { email: "danaher@x.io", name: "Danaher Quinn" }, thread(3, 5, 2));
  // Bob does not share his network; Carol is another org.
  knows(t.deps, f.users.bob.id, { email: "dana@bob.io", name: "Dana Bobson" }, thread(3, 5, 2));
  knows(t.deps, f.users.carol.id, { email: "dana@globex.io", name: "Dana Globex" }, thread(3, 5, 2));
  const network = networkService(t.deps);
  const alice = principalOf(t.deps, f.keys.read.secret);
  expect(network.namesByFirstName(alice, "Dana")).toEqual(["Dana Scully", "Dana Whitaker"]);
  expect(network.namesByFirstName(alice, "  DANA ")).toEqual(["Dana Scully", "Dana Whitaker"]);
  expect(network.namesByFirstName(alice, "Dana Scully")).toEqual([]);
  expect(network.namesByFirstName(alice, "")).toEqual([]);
  expect(network.namesByFirstName(alice, "Zed")).toEqual([]);
  expect(network.namesByFirstName(principalOf(t.deps, f.keys.otherOrgWrite.secret), "Dana")).toEqual(["Dana Globex"]);
});
