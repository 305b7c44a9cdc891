export const ROLE_LABELS = { admin: "Admin", member: "Member" } as const;
