import { createInvitedMember, createOnboardedAccount, createVerifiedAccount, PASSWORD } from "./accounts";
import { expect, test } from "./fixtures";
import { mailCount, uniqueEmail, waitForLink } from "./mailbox";
import { signIn, toast } from "./ui";

const baseUrl = () => process.env.E2E_BASE_URL ?? "";

test("an admin invites a colleague, who registers through the mailed link and joins; the admin removes them", async ({
  page,
  browser,
  request,
  consoleErrors,
}) => {
  // Inviting the same address twice, and the removed colleague's revoked session: whichever of its
  // requests comes first meets it, the next page's /api/me or a poll of its open overview's figures.
  consoleErrors.allowFailedRequest(409, "/api/team-members/invite");
  consoleErrors.allow(
    /^Failed to load resource: the server responded with a status of 401 .* https?:\/\/[^/]+\/api\/\S+$/,
  );
  const admin = await createOnboardedAccount(request, "teamadmin");
  await signIn(page, admin.token);
  await page.goto("/dashboard/settings?tab=team");
  await expect(page.getByTestId("team-member-row")).toHaveCount(1);

  const colleague = uniqueEmail("colleague");
  const before = mailCount();
  await page.getByRole("button", { name: "Invite Member" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByRole("combobox", { name: "Role" })).toHaveText("Member");
  await dialog.getByLabel("Email").fill(colleague);
  await dialog.getByRole("button", { name: "Send Invitation" }).click();
  await expect(toast(page, "Invitation sent")).toBeVisible();
  await expect(dialog).toBeHidden();
  const invitedRow = page.getByTestId("team-member-row").filter({ hasText: colleague });
  await expect(invitedRow.getByText("Pending", { exact: true })).toBeVisible();

  // Inviting the same address again is refused inside the dialog.
  await page.getByRole("button", { name: "Invite Member" }).click();
  await dialog.getByLabel("Email").fill(colleague);
  await dialog.getByRole("button", { name: "Send Invitation" }).click();
  await expect(dialog.getByRole("alert")).toHaveText("This person is already in your team");
  await dialog.getByRole("button", { name: "Cancel" }).click();

  // The colleague, in a browser of their own, follows the invitation mail.
  const link = await waitForLink(colleague, `${baseUrl()}/auth?`, before);
  const other = await browser.newContext();
  const colleaguePage = await other.newPage();
  await colleaguePage.goto(link);
  await expect(colleaguePage.getByLabel("Email")).toHaveValue(colleague);
  await colleaguePage.getByLabel("Password").fill(PASSWORD);
  await colleaguePage.getByRole("button", { name: "Sign up" }).click();
  await expect(colleaguePage.getByText("Registration successful! You can now sign in.")).toBeVisible();
  await colleaguePage.getByRole("button", { name: "Sign in" }).click();
  await expect(colleaguePage.getByLabel("Email")).toHaveValue(colleague);
  await colleaguePage.getByLabel("Password").fill(PASSWORD);
  await colleaguePage.getByRole("button", { name: "Sign in" }).click();
  // Straight to the dashboard: the organization is already set up.
  await expect(colleaguePage).toHaveURL(/\/dashboard$/);

  await page.reload();
  const joined = page.getByTestId("team-member-row").filter({ hasText: colleague });
  await expect(joined.getByText("Member", { exact: true })).toBeVisible();
  await expect(joined.getByText("Pending", { exact: true })).toBeHidden();

  await joined.getByRole("button", { name: "Remove" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Remove" }).click();
  await expect(page.getByTestId("team-member-row").filter({ hasText: colleague })).toHaveCount(0);

  // The removed colleague's session is gone: the next page load sends them to sign in.
  await colleaguePage.goto("/dashboard/settings?tab=team");
  await expect(colleaguePage).toHaveURL(/\/auth/);
  await other.close();
});

test("someone who onboards with the organization's domain waits, Pending, until an admin approves; members see no Approve", async ({
  page,
  browser,
  request,
}) => {
  const admin = await createOnboardedAccount(request, "approver");
  const applicant = await createVerifiedAccount(request, "applicant");
  const onboarding = await request.post("/api/onboarding", {
    headers: { authorization: `Bearer ${applicant.token}` },
    data: {
      companyName: "Approver",
      website: `https://${admin.domain}`,
      description: "Approver builds software used in browser tests.",
      transactionalEmailProvider: "postmark",
      marketingEmailProvider: "mailchimp",
      selectedCompetitors: [],
      selectedComplements: [],
    },
  });
  expect(onboarding.status()).toBe(202);

  // A member of the organization sees the request, without Approve.
  // An account already: they join by signing in with the invitation's token.
  const member = await createInvitedMember(request, admin, "plainmember");
  const memberContext = await browser.newContext();
  const memberPage = await memberContext.newPage();
  await signIn(memberPage, member.token);
  await memberPage.goto("/dashboard/settings?tab=team");
  const seenByMember = memberPage.getByTestId("team-member-row").filter({ hasText: applicant.email });
  await expect(seenByMember.getByText("Pending", { exact: true })).toBeVisible();
  await expect(seenByMember.getByRole("button", { name: "Approve" })).toHaveCount(0);
  await expect(memberPage.getByRole("button", { name: "Invite Member" })).toBeVisible();
  await memberContext.close();

  await signIn(page, admin.token);
  await page.goto("/dashboard/settings?tab=team");
  const row = page.getByTestId("team-member-row").filter({ hasText: applicant.email });
  await row.getByRole("button", { name: "Approve" }).click();
  await expect(row.getByText("Pending", { exact: true })).toBeHidden();
  await expect(row.getByRole("button", { name: "Approve" })).toHaveCount(0);
});

test("the invite dialog says 'Invalid email address' under the field and sends nothing", async ({
  page,
  request,
}) => {
  const admin = await createOnboardedAccount(request, "invitecheck");
  await signIn(page, admin.token);
  await page.goto("/dashboard/settings?tab=team");
  await expect(page.getByTestId("team-member-row")).toHaveCount(1);
  const invites: string[] = [];
  page.on("request", (sent) => {
    if (sent.url().includes("/api/team-members/invite")) invites.push(sent.url());
  });

  await page.getByRole("button", { name: "Invite Member" }).click();
  const dialog = page.getByRole("dialog");
  const email = dialog.getByLabel("Email");
  await email.fill("not-an-email");
  await dialog.getByRole("button", { name: "Send Invitation" }).click();
  await expect(dialog.getByText("Invalid email address", { exact: true })).toBeVisible();
  await expect(email).toHaveAttribute("aria-invalid", "true");
  await expect(email).toHaveAccessibleDescription("Invalid email address");
  await expect(dialog).toBeVisible();

  // An empty address is refused the same way.
  await email.fill("");
  await dialog.getByRole("button", { name: "Send Invitation" }).click();
  await expect(email).toHaveAccessibleDescription("Invalid email address");
  expect(invites).toEqual([]);
  await expect(page.getByTestId("team-member-row")).toHaveCount(1);
});
