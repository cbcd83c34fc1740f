import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  CHROMIUM,
  type ConsoleGuard,
  launchChromium,
  saveScreenshot,
  seriousViolations,
  signInToConsole,
  startGuardForConsole,
} from './support/console-browser.ts'

const NEW_PASSWORD = 'a-brand-new-owner-password'

describe.skipIf(!CHROMIUM)('console settings: members, invitations and the password, in headless Chromium', () => {
  let guard: ConsoleGuard
  let browser: Browser
  let page: Page

  beforeAll(async () => {
    guard = await startGuardForConsole()
    browser = await launchChromium()
    page = (await signInToConsole(browser, guard)).page
  }, 180_000)
  afterAll(async () => {
    await browser?.close()
    await guard?.stop()
  })

  it('shows the organization, its plan and usage to its owner, who may rename it', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click()
    await page.getByRole('heading', { name: 'Plan and usage' }).waitFor()
    await page.getByRole('cell', { name: 'Monitors (domains and services)' }).waitFor()
    await page.getByLabel('Organization name').fill('Acme Monitoring')
    await page.getByRole('button', { name: 'Rename' }).click()
    await page.getByRole('status').filter({ hasText: 'Renamed to Acme Monitoring' }).waitFor()
    await page.locator('.facts dd', { hasText: 'Acme Monitoring' }).waitFor()
    await saveScreenshot(page, 'console/settings-organization')
    expect(await seriousViolations(page)).toEqual([])
  })

  it('invites a member by e-mail, who joins from the link; the owner changes their role, then removes them', async () => {
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Members' }).click()
    await page.getByRole('heading', { name: 'Invitations' }).waitFor()
    await page.getByLabel('Email', { exact: true }).fill('nina@example.org')
    await page.getByLabel('Role', { exact: true }).selectOption('member')
    const invite = page.getByRole('button', { name: 'Invite' })
    await invite.click()
    const link = await page.getByRole('textbox', { name: 'Invitation link' }).inputValue()
    expect(link).toContain('/invitations/accept?token=')
    const pending = page.getByRole('table', { name: 'Pending invitations' })
    await pending.getByRole('cell', { name: 'nina@example.org', exact: true }).waitFor()
    await saveScreenshot(page, 'console/settings-members')
    expect(await seriousViolations(page)).toEqual([])

    const invitee = await browser.newContext()
    const joining = await invitee.newPage()
    await joining.goto(link)
    await joining.getByLabel('Your name').fill('Nina')
    await joining.getByLabel(/Choose a password/).fill('ninas-own-password')
    await joining.getByRole('button', { name: 'Create account and join' }).click()
    await joining.getByRole('heading', { name: /You joined/ }).waitFor()
    await invitee.close()

    await page.reload()
    const members = page.getByRole('table', { name: 'Members of the organization' })
    const role = members.getByLabel('Role of Nina')
    await role.waitFor()
    expect(await role.inputValue()).toBe('member')
    await pending.getByRole('cell', { name: 'nina@example.org', exact: true }).waitFor({ state: 'detached' })

    await role.selectOption('viewer')
    await page.getByRole('status').filter({ hasText: 'Nina is now viewer.' }).waitFor()

    await members.getByRole('button', { name: 'Remove Nina' }).click()
    const confirm = page.getByRole('dialog', { name: 'Remove Nina?' })
    await confirm.getByRole('button', { name: 'Remove member' }).click()
    await page.getByRole('status').filter({ hasText: 'Nina was removed' }).waitFor()
    await members.getByRole('cell', { name: 'Nina', exact: true }).waitFor({ state: 'detached' })
  })

  it('changes the password, after which the new one signs in', async () => {
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Profile' }).click()
    await page.getByText(guard.admin.email, { exact: true }).waitFor()
    await page.getByLabel('Current password').fill('not the password at all')
    await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD)
    await page.getByLabel('Repeat the new password').fill(NEW_PASSWORD)
    await page.getByRole('button', { name: 'Change password' }).click()
    await page.getByRole('alert').filter({ hasText: 'the current password is wrong' }).waitFor()

    await page.getByLabel('Current password').fill(guard.admin.password)
    await page.getByRole('button', { name: 'Change password' }).click()
    await page.getByRole('status').filter({ hasText: 'Password changed' }).waitFor()
    await saveScreenshot(page, 'console/settings-profile')
    // This console stays signed in: its own token family is the one identity keeps.
    await page.reload()
    await page.getByRole('heading', { name: 'Password' }).waitFor()

    const again = await signInToConsole(browser, { ...guard, admin: { ...guard.admin, password: NEW_PASSWORD } })
    expect(again.page.url().startsWith(guard.collectorUrl)).toBe(true)
    await again.context.close()
  })
})
