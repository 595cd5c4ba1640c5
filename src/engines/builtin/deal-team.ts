// The team as the material names it: a person (a given name and a family name, an honorific or a
// degree around it, never an organisation) with a role next to them: on the same line ("Dr. <Name>,
// CEO & Co-founder", "CTO: <Name>", "<Name> (CTO)"), on the line below or above (a card or a photo
// caption, the name and the role in separate boxes), in the next cell of a table row or the cell
// below in a grid, or a row of names followed by their roles in the same order (cards read row by
// row). Roles are read by their shape (founder, C-level, chief/head/VP/director of something, a
// lead, an engineer), not from a fixed list. Advisors, board members, investors and customers'
// people are not the team: a heading or a label says where they are listed ("Advisors", "Backed
// by", "What customers say"), a role held somewhere else ("COO at <another company>", "Former CFO
// of SAP"), an advisor's or investor's role, or a quotation's signature (the line after a quote,
// or a line opened by a dash) gives them away.
// This file reads the layout (cards, rows of names over rows of roles, grids, captions); what one
// line says and whether it names an outsider is read in deal-team-lines.ts; names set without any
// role in deal-team-unroled.ts.
import { givenNameAlone, isRole, nameAlone, NOT_TEAM_ROLE, personName, roleAtStart } from "./deal-people.ts";
import { aboutThem, BRACKETED, captionOf, cardIn, CELL_SPLIT, cellCaption, DASHED, INVESTING, LINKEDIN, memberLine, NAME_THEN_CAPTION, OUTSIDERS, peopleIn, QUOTATION, roleFirst, roleIn, rolesIn, splitName, TEAM_LABEL, TEAM_SPOKEN, type Found, type TeamMember, type TeamOptions } from "./deal-team-lines.ts";
import { namesWithoutRoles } from "./deal-team-unroled.ts";
import { topicOfHeading, type Unit } from "./deal-text.ts";

export { namedOnlyAsOutsider, type TeamMember, type TeamOptions, type TeamSource } from "./deal-team-lines.ts";

export function extractTeam(units: Unit[], opts: TeamOptions): TeamMember[] {
  const found: Found[] = [];
  const links: { url: string; at: number; pageIndex: number }[] = [];
  let offset = 0;
  // Signatures: a line opened by a dash, or the line (and a role line below a name) after a quotation.
  const signature = new Set<number>();
  const indexOf = new Map(units.map((u, i) => [u, i]));
  units.forEach((u, i) => {
    if (DASHED.test(u.text)) signature.add(i);
    if (!QUOTATION.test(u.text)) return;
    for (let k = 1; k <= 2; k++) {
      const next = units[i + k];
      if (!next || next.pageIndex !== u.pageIndex || QUOTATION.test(next.text) || next.heading && !nameAlone(next.text)) break;
      signature.add(i + k);
      if (!nameAlone(next.text)) break;
    }
  });
  // A team slide with advisors or investors beside the team: cards set side by side are read in
  // an order that may put a team member after the advisors' title, so there the role decides (an
  // advisor's or investor's role, or one held elsewhere, is no member's); a slide of their own is theirs.
  const pageTopic = new Map<number, string | null>();
  for (const u of units) if (u.heading && !pageTopic.has(u.pageIndex) && topicOfHeading(u.text)) pageTopic.set(u.pageIndex, topicOfHeading(u.text));
  // A page under no known title that speaks of its team ("Our team are ...") and sets three or more
  // names on lines of their own is the team's page: its cards are read as a team slide's.
  const namesOn = new Map<number, number>();
  for (const u of units) if (!u.boilerplate && nameAlone(u.text)) namesOn.set(u.pageIndex, (namesOn.get(u.pageIndex) ?? 0) + 1);
  for (const u of units)
    if (!pageTopic.has(u.pageIndex) && !u.heading && !u.boilerplate && u.context === null && TEAM_SPOKEN.test(u.text) && (namesOn.get(u.pageIndex) ?? 0) >= 3) pageTopic.set(u.pageIndex, "team");
  // A page under no known title that holds nothing but three or more cards, each a name over a short
  // caption ("<Name>" / "Finance"), is the team's page when the deck names one of them as its own
  // elsewhere: presenting it, or in its contact address ("Presented by <Name>", "<given>.x@...").
  // (Cards alone may be a launch event's speakers or customers' people.)
  const ownElsewhere = (name: string, page: number) => {
    const given = name.split(/\s+/)[0].toLowerCase();
    return units.some((o) => o.pageIndex !== page && !OUTSIDERS.has(o.context as string) && (o.text.includes(name) || [...o.text.matchAll(/([\w.+-]+)@[\w-]+\.[\w.]+/g)].some((m) => m[1].toLowerCase().includes(given))));
  };
  const byPage = new Map<number, Unit[]>();
  for (const u of units) if (!u.boilerplate) (byPage.get(u.pageIndex) ?? byPage.set(u.pageIndex, []).get(u.pageIndex)!).push(u);
  for (const [page, list] of byPage) {
    if (pageTopic.has(page)) continue;
    const cards = list.length % 2 ? list.slice(1) : list;
    const pairs = Array.from({ length: cards.length / 2 }, (_, j) => [cards[2 * j].text, cards[2 * j + 1].text]);
    if (pairs.length >= 3 && pairs.every(([name, caption]) => nameAlone(name) && !nameAlone(caption) && (roleFirst(caption, opts) ?? captionOf(caption))) && pairs.some(([name]) => ownElsewhere(nameAlone(name)!, page))) pageTopic.set(page, "team");
  }
  // Pages where a line captions a whole name ("<Name> – Frontend"): there a given name may be captioned alone.
  const captionedNames = new Map<number, boolean>();
  for (const u of units) {
    const c = NAME_THEN_CAPTION.exec(u.text.trim());
    if (c && nameAlone(c[1]) && (roleFirst(c[2], opts) ?? captionOf(c[2]))) captionedNames.set(u.pageIndex, true);
  }
  const besideTeam = (u: Unit) => (u.context === "advisors" || u.context === "investors") && pageTopic.get(u.pageIndex) === "team";
  const excluded = (u: Unit) => u.boilerplate || (OUTSIDERS.has(u.context as string) && !besideTeam(u)) || signature.has(indexOf.get(u)!);
  const starts = units.map((u) => {
    const at = offset;
    offset += u.text.length + 1;
    return at;
  });
  // Cards written row by row: a run of names, then as many roles, in the same order.
  const paired = new Set<number>();
  const roleUsed = new Set<number>();
  // On the team's page, names set in two styles on two lines: the family name in small letters
  // over the given name in capitals ("muriithi" / "JOANN"), or the other way round, as card
  // designs and OCR of them give them. Three or more such pairs on the page make them names.
  for (const [page, list] of byPage) {
    if (pageTopic.get(page) !== "team") continue;
    const pairs: { at: number; next: number; name: string }[] = [];
    for (let j = 0; j < list.length; j++) {
      const [a, b] = [list[j], list[j + 1]];
      if (excluded(a)) continue;
      // The two set on one line ("JOANN muriithi").
      const words = a.text.trim().split(/\s+/);
      const one = words.length === 2 ? (splitName(words[1], words[0], true) ?? splitName(words[0], words[1])) : null;
      if (one) {
        pairs.push({ at: indexOf.get(a)!, next: indexOf.get(a)!, name: one });
        continue;
      }
      if (!b || excluded(b)) continue;
      const name = splitName(a.text, b.text) ?? splitName(b.text, a.text, true);
      if (name) pairs.push({ at: indexOf.get(a)!, next: indexOf.get(b)!, name }), j++;
    }
    if (pairs.length < 3) continue;
    for (const p of pairs) {
      found.push({ name: p.name, title: null, at: starts[p.at], pageIndex: page, source: { quote: p.next === p.at ? units[p.at].text : `${units[p.at].text} ${units[p.next].text}`, unit: units[p.at] } });
      paired.add(p.at).add(p.next);
    }
  }
  // Each unit's name, read once: the run of names is scanned again from every unit in it, so a
  // page listing thousands of names would otherwise cost a name match per pair of them.
  const nameMemo = new Map<number, string | null>();
  const nameAt = (j: number) => (nameMemo.has(j) ? nameMemo.get(j)! : nameMemo.set(j, nameAlone(units[j].text)).get(j)!);
  for (let i = 0; i < units.length; i++) {
    let k = 0;
    const same = (j: number) => j < units.length && units[j].pageIndex === units[i].pageIndex && !excluded(units[j]);
    // On the team's page a card may give a given name only ("Daniel" beside "<Given> <Family>"): it
    // counts in a row of names only when a row of as many captions, cell for cell, sits under them.
    const onTeamPage = pageTopic.get(units[i].pageIndex) === "team" || units[i].context === "team";
    const nameOf = (j: number) => nameAt(j) ?? (onTeamPage ? givenNameAlone(units[j].text) : null);
    while (same(i + k) && nameOf(i + k)) k++;
    if (k < 2) continue;
    const givenOnly = Array.from({ length: k }, (_, n) => !nameAt(i + n)).some(Boolean);
    // Their roles: as many units after them, or one row with a cell for each (an advisor's cell is no role).
    const row = same(i + k) ? units[i + k].text.split(CELL_SPLIT) : [];
    if (givenOnly && !(row.length === k && row.length > 1)) continue;
    // On the team's page a cell under a name may be a caption of no role's shape ("Growth Hacker",
    // "Year 3 Business Analytics").
    let roles =
      row.length === k && row.length > 1
        ? row.map((cell) => roleFirst(cell, opts) ?? (onTeamPage && !nameAlone(cell) ? (captionOf(cell) ?? cellCaption(cell)) : null))
        : Array.from({ length: k }, (_, n) => (same(i + k + n) ? roleFirst(units[i + k + n].text, opts) : null));
    if (givenOnly && !roles.every(Boolean)) continue;
    // On the team's page the line under each name may be a caption of no role's shape ("Product & Tech"):
    // a row of names over as many captions, none of them a name, is the same row of cards.
    // Off the team's page too, when one of the lines has a role's shape ("CEO/Backend" beside "EIR").
    if (!(row.length === k && row.length > 1) && !roles.every(Boolean) && (onTeamPage || roles.some(Boolean))) {
      const captions = Array.from({ length: k }, (_, n) => (same(i + k + n) && !nameAlone(units[i + k + n].text) ? captionOf(units[i + k + n].text) : null));
      if (captions.every(Boolean)) roles = captions;
    }
    if (row.length === k && row.length > 1 ? !roles.some(Boolean) : !roles.every(Boolean)) continue;
    for (let n = 0; n < k; n++) {
      const unit = units[i + n];
      if (roles[n]) found.push({ name: nameOf(i + n)!, title: roles[n]!, at: starts[i + n], pageIndex: unit.pageIndex, source: { quote: unit.text, unit } });
      paired.add(i + n);
    }
    let used = row.length === k && row.length > 1 ? 1 : k;
    // The cards' further lines, row by row under the roles (a second caption, a former employer), are theirs too.
    if (row.length === k && row.length > 1) while (same(i + k + used) && units[i + k + used].text.split(CELL_SPLIT).length === k) used++;
    for (let n = 0; n < used; n++) paired.add(i + k + n);
    i += k + used - 1;
  }
  // Narrow cards wrap the name and the role over several lines ("Prof. Dr." / "Ines" / "Duarte",
  // "Chief Executive" / "Officer"): the name is the lines that together make one, the role the
  // lines after it that together make one.
  const short = (j: number, page: number) => {
    const o = units[j];
    return !!o && o.pageIndex === page && !excluded(o) && !paired.has(j) && o.text.split(/\s+/).length <= 3 && !/[.!?:;]$|\d/.test(o.text.replace(/^(?:Prof|Dr|Mr|Ms|Mrs|Dipl\.-Ing)\.(?:\s*(?:Prof|Dr)\.)*$/, "x"));
  };
  const joined = (from: number, n: number) => units.slice(from, from + n).map((o) => o.text.trim()).join(" ");
  for (let i = 0; i < units.length; i++) {
    const page = units[i].pageIndex;
    if (!short(i, page)) continue;
    // A line after one that breaks off ("... previously Principal at") finishes it: "Stripe" there is
    // where they worked, not the start of a name.
    if (i > 0 && units[i - 1].pageIndex === page && /\b(?:at|of|from|with|for|by|and|in)$/i.test(units[i - 1].text.trim())) continue;
    let k = 0;
    // (Not a word before a name that is whole without it: "Airbus" over "<Given> <Family>".)
    for (let n = 1; n <= 3 && !k; n++) if (Array.from({ length: n }, (_, d) => short(i + d, page) && !topicOfHeading(units[i + d].text)).every(Boolean) && nameAlone(joined(i, n)) && (n === 1 || !nameAlone(joined(i + 1, n - 1)))) k = n;
    if (!k) continue;
    // The role: the most lines that a role starting on the first of them runs into (its last line may go on: "CEO previously").
    let m = 0;
    let title: string | null = null;
    for (let n = 3; n >= 1 && !m; n--) {
      const lines = Array.from({ length: n }, (_, d) => i + k + d);
      if (!lines.every((j, d) => (d < n - 1 ? short(j, page) : !!units[j] && units[j].pageIndex === page && !excluded(units[j]) && !paired.has(j)) && (d === 0 || !nameAlone(units[j].text)))) continue;
      const text = joined(i + k, n);
      const hit = roleAtStart(text);
      if (!hit || NOT_TEAM_ROLE.test(text) || (n > 1 && hit.title.length <= joined(i + k, n - 1).length)) continue;
      m = n;
      title = roleIn(text, hit.title, 0, hit.title.length, opts);
    }
    if (!m || !title || (k === 1 && m === 1)) continue;
    const unit = units[i];
    found.push({ name: nameAlone(joined(i, k))!, title, at: starts[i], pageIndex: page, source: { quote: `${joined(i, k)} ${joined(i + k, m)}`, unit } });
    for (let d = 0; d < k + m; d++) paired.add(i + d);
    i += k + m - 1;
  }
  // A grid of narrow cards read as table rows ("Ingrid | Kofi" over "Solberg | Mensah" over
  // "CEO | CTO"): each column is a card, its cells read top to bottom.
  for (let i = 0; i < units.length; i++) {
    const width = units[i].text.split(CELL_SPLIT).length;
    if (width < 2 || excluded(units[i]) || paired.has(i)) continue;
    let end = i;
    while (end + 1 < units.length && units[end + 1].pageIndex === units[i].pageIndex && !excluded(units[end + 1]) && units[end + 1].text.split(CELL_SPLIT).length === width) end++;
    if (end === i) continue;
    const rows = units.slice(i, end + 1).map((u) => u.text.split(CELL_SPLIT).map((c) => c.trim()));
    let cards: ({ name: string; title: string | null } | null)[] = Array.from({ length: width }, (_, k) => cardIn(rows.map((r) => r[k]), opts));
    // On the team's page a grid of names alone ("<Given> | <Given>" over "<Family> | <Family>"), their roles set elsewhere.
    if (cards.every((c) => !c) && (pageTopic.get(units[i].pageIndex) === "team" || units[i].context === "team")) {
      const names = Array.from({ length: width }, (_, k) => nameAlone(rows.map((r) => r[k]).join(" ")));
      if (names.every(Boolean)) cards = names.map((name) => ({ name: name!, title: null }));
    }
    if (cards.filter(Boolean).length >= 2 && rows[0].every((c) => c.split(/\s+/).length <= 3)) {
      cards.forEach((card, k) => card && found.push({ ...card, at: starts[i] + k, pageIndex: units[i].pageIndex, source: { quote: `${card.name} ${card.title}`, unit: units[i] } }));
      for (let j = i; j <= end; j++) paired.add(j);
    }
    i = end;
  }
  // A page whose cards set the role over the name: its first role or name line is a role, a name under it.
  const rolesAbove = new Set<number>();
  const seenPage = new Set<number>();
  units.forEach((u, i) => {
    if (excluded(u) || seenPage.has(u.pageIndex) || !(isRole(u.text) || nameAlone(u.text))) return;
    seenPage.add(u.pageIndex);
    const next = units[i + 1];
    if (isRole(u.text) && next && next.pageIndex === u.pageIndex && nameAlone(next.text)) rolesAbove.add(u.pageIndex);
  });
  const spacedMembers = new Map<number, { name: string; title: string; role: boolean }>();
  {
    const perPage = new Map<number, number[]>();
    units.forEach((u, i) => {
      if (excluded(u) || paired.has(i) || pageTopic.get(u.pageIndex) !== "team" || (u.context !== "team" && u.context !== null)) return;
      const hit = memberLine(u.text, opts);
      if (!hit) return;
      spacedMembers.set(i, hit);
      (perPage.get(u.pageIndex) ?? perPage.set(u.pageIndex, []).get(u.pageIndex)!).push(i);
    });
    // Two or more such lines, one of them with a role's shape: a captioned list, not sentences that open with a name.
    for (const lines of perPage.values()) if (lines.length < 2 || !lines.some((i) => spacedMembers.get(i)!.role)) for (const i of lines) spacedMembers.delete(i);
  }
  units.forEach((u, i) => {
    const at = starts[i];
    for (const m of u.text.matchAll(LINKEDIN)) links.push({ url: m[0].startsWith("http") ? m[0].replace(/\/$/, "") : `https://${m[0].replace(/\/$/, "")}`, at: at + m.index!, pageIndex: u.pageIndex });
    if (excluded(u) || paired.has(i)) return;
    const next = units[i + 1];
    const below = next && next.pageIndex === u.pageIndex && !excluded(next) ? next : null;
    // A card: the name on its line, the role on the next.
    const alone = nameAlone(u.text);
    const role = alone && below && !CELL_SPLIT.test(below.text) && !rolesAbove.has(u.pageIndex) ? roleFirst(below.text, opts) : null;
    if (alone && role) {
      found.push({ name: alone, title: role, at, pageIndex: u.pageIndex, source: { quote: `${u.text} ${below!.text}`, unit: u } });
      roleUsed.add(i + 1);
    }
    // The role set above the name ("CEO" over the name), when that role line is no one else's.
    const above = units[i - 1];
    const roleAbove = alone && !role && (rolesAbove.has(u.pageIndex) || !(below && nameAlone(below.text) === null && roleFirst(below.text, { ...opts, own: () => true }))) && above && above.pageIndex === u.pageIndex && !excluded(above) && !roleUsed.has(i - 1) && !paired.has(i - 1) && !CELL_SPLIT.test(above.text) ? roleFirst(above.text, opts) : null;
    const setAbove = !!(alone && roleAbove && isRole(above.text));
    if (setAbove) {
      found.push({ name: alone, title: roleAbove, at, pageIndex: u.pageIndex, source: { quote: `${above.text} ${u.text}`, unit: u } });
      roleUsed.add(i - 1);
    }
    // On a team slide, a card's name over a bio that speaks of them ("<Given> is a senior ...",
    // "She leads ..."): a member, with the role the bio names (if it names one of this company's).
    if (alone && !role && !setAbove && u.context === "team" && below && !roleUsed.has(i) && aboutThem(below.text, alone)) {
      const bio = [below, units[i + 2]].filter((o) => o && o.pageIndex === u.pageIndex && !excluded(o)).map((o) => o.text).join(" ");
      if (!NOT_TEAM_ROLE.test(bio) && !INVESTING.test(bio)) {
        const title = rolesIn(bio, opts)[0] ?? null;
        found.push({ name: alone, title, at, pageIndex: u.pageIndex, source: { quote: `${u.text} ${below.text}`, unit: u } });
        return;
      }
    }
    // On the team's own slide, a card's name over a short caption that is no role's shape ("PRODUCT &
    // TECH", "Growth"): a member, captioned as the card says. A caption that speaks of an advisor,
    // an investor or a role held elsewhere is no member's.
    if (alone && !role && !setAbove && (u.context === "team" || u.context === null) && pageTopic.get(u.pageIndex) === "team" && below && !roleUsed.has(i) && captionOf(below.text)) {
      found.push({ name: alone, title: captionOf(below.text)!, at, pageIndex: u.pageIndex, source: { quote: `${u.text} ${below.text}`, unit: u } });
      roleUsed.add(i + 1);
      return;
    }
    // A grid of cards written row by row: a row of names over a row of roles, cell for cell.
    const cells = u.text.split(CELL_SPLIT);
    if (cells.length >= 2 && below) {
      const names = cells.map(nameAlone);
      const roles = below.text.split(CELL_SPLIT).map((c) => roleFirst(c, opts));
      // Cell for cell from the left; a cell that is no name ("Supported by") or no role pairs nothing.
      const pairs = names.map((name, k) => (name && roles[k] ? [name, roles[k]!] : null)).filter((p): p is [string, string] => p !== null);
      if (roles.length >= 2 && names.filter(Boolean).length >= 2 && pairs.length) {
        pairs.forEach(([name, title], k) => found.push({ name, title, at: at + k, pageIndex: u.pageIndex, source: { quote: u.text, unit: u } }));
        return;
      }
    }
    const people = peopleIn(u.text, u.breaks, opts);
    for (const p of people) found.push({ name: p.name, title: p.title, at: at + p.at, pageIndex: u.pageIndex, source: { quote: u.text, unit: u } });
    // On the team's own page, a line that is a name and a caption set apart by a dash, a colon or a
    // semicolon ("<Name> – Frontend Development", "<NAME>; TEAM'S WRITER"): a member, captioned so.
    // A given name alone so captioned ("<Given> – Backend") is a member where other lines of the page
    // caption whole names so; the caption may come first ("TBD – <Name>"), the name after it.
    const captioned = !people.length && (u.context === "team" || pageTopic.get(u.pageIndex) === "team") ? NAME_THEN_CAPTION.exec(u.text.trim()) : null;
    const member = captioned ? (nameAlone(captioned[1]) ?? (captionedNames.get(u.pageIndex) ? givenNameAlone(captioned[1]) : null)) : null;
    const caption = member ? (roleFirst(captioned![2], opts) ?? captionOf(captioned![2])) : null;
    if (member && caption && !NOT_TEAM_ROLE.test(captioned![2])) {
      found.push({ name: member, title: caption, at, pageIndex: u.pageIndex, source: { quote: u.text, unit: u } });
      return;
    }
    const after = captioned && !member ? nameAlone(captioned[2]) : null;
    const before = after && !nameAlone(captioned![1]) ? (roleFirst(captioned![1], opts) ?? captionOf(captioned![1])) : null;
    if (after && before && !NOT_TEAM_ROLE.test(captioned![1])) {
      found.push({ name: after, title: before, at, pageIndex: u.pageIndex, source: { quote: u.text, unit: u } });
      return;
    }
    // A list on the team's page whose lines are "<Given> <Family> <caption>" with nothing between
    // the name and what they do ("<Name> Prime Mover"): a member, when two or more lines of the page
    // read so (one such line alone may be a sentence's opening).
    const listed2 = !people.length ? spacedMembers.get(i) : undefined;
    if (listed2) {
      found.push({ name: listed2.name, title: listed2.title, at, pageIndex: u.pageIndex, source: { quote: u.text, unit: u } });
      return;
    }
    // The team listed in a sentence with what each does in brackets ("Team: <Name> (Product/Data),
    // <Name> (Operations) and <Name> (Ecosystem)"), under the team's title or after a "Team:" label.
    const listed = TEAM_LABEL.exec(u.text);
    if (u.context === "team" || listed) {
      const from = listed ? listed.index + listed[0].length : 0;
      const pairs = [...u.text.slice(from).matchAll(BRACKETED)].flatMap((m) => {
        const name = personName(m.groups!.name);
        return name && captionOf(m[2]) ? [{ name, title: m[2].trim(), at: from + m.index! }] : [];
      });
      if (pairs.length >= 2) for (const p of pairs) found.push({ ...p, at: at + p.at, pageIndex: u.pageIndex, source: { quote: u.text, unit: u } });
    }
  });
  if (found.length === 0) found.push(...namesWithoutRoles({ units, excluded, starts, byPage, pageTopic, indexOf, opts }));
  found.sort((a, b) => a.at - b.at);
  const team = new Map<string, TeamMember & { at: number; pageIndex: number }>();
  for (const f of found) if (!team.has(f.name) && team.size < 12) team.set(f.name, { name: f.name, title: f.title, linkedin_url: null, at: f.at, pageIndex: f.pageIndex, source: f.source });

  // A LinkedIn address belongs to the person named just before it on the same page (before the
  // next person); failing that, to the person whose name its slug spells.
  const members = [...team.values()];
  const used = new Set<string>();
  members.forEach((member, i) => {
    const nextAt = members[i + 1]?.pageIndex === member.pageIndex ? members[i + 1].at : Infinity;
    const near = links.find((l) => l.pageIndex === member.pageIndex && l.at > member.at && l.at < nextAt && !used.has(l.url));
    if (near) (member.linkedin_url = near.url), used.add(near.url);
  });
  for (const member of members) {
    if (member.linkedin_url) continue;
    const parts = member.name.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().split(/\s+/).map((p) => p.replace(/[^a-z]/g, ""));
    const slugged = links.find((l) => !used.has(l.url) && parts.every((p) => l.url.toLowerCase().includes(p)));
    if (slugged) (member.linkedin_url = slugged.url), used.add(slugged.url);
  }
  return members.map(({ name, title, linkedin_url, source }) => ({ name, title, linkedin_url, source }));
}
