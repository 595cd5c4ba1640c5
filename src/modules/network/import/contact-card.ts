// A contact as the address-book readers give it (vCard cards, CSV rows of any dialect).
export type ContactCard = {
  line: number;
  /** Valid addresses, the preferred one first. */
  emails: string[];
  name: string | null;
  title: string | null;
  company: string | null;
  linkedinUrl: string | null;
  location: string | null;
};

export type ContactsRead = { cards: ContactCard[]; errors: { line: number; reason: string }[] };
