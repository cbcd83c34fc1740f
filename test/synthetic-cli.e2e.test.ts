import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runSyntheticCommand } from '../bin/commands/synthetic.ts'
import { startShopApp } from '../probe/src/testing/shop-app.ts'

describe('guard synthetic run', () => {
  let shop: Awaited<ReturnType<typeof startShopApp>>
  let dir: string
  beforeAll(async () => {
    shop = await startShopApp('s3cret-value')
    dir = await mkdtemp(join(tmpdir(), 'guard-synthetic-cli-'))
  })
  afterAll(async () => {
    await shop.close()
    await rm(dir, { recursive: true, force: true })
  })

  it('runs a script file locally, prints the run as JSON with the secret redacted, exits 0 when it passes', async () => {
    const file = join(dir, 'checkout.js')
    await writeFile(
      file,
      `test('checkout', async ({ page }) => {
        await page.goto('${shop.url}/login')
        await page.getByLabel('User').fill('ada')
        await page.getByLabel('Password').fill(secrets.SHOP_PASSWORD)
        await page.getByRole('button', { name: 'Sign in' }).click()
        console.log('used', secrets.SHOP_PASSWORD)
        await expect(page.locator('#total')).toContainText('42.00')
      })`,
    )
    const out: string[] = []
    const err: string[] = []
    const status = await runSyntheticCommand(
      ['run', file, '--secret', 'SHOP_PASSWORD', '--timeout', '90', '--artifacts', dir],
      { SHOP_PASSWORD: 's3cret-value', GUARD_ALLOW_PRIVATE_TARGETS: '1' },
      { stdout: (text) => out.push(text), stderr: (text) => err.push(text) },
    )
    expect(JSON.parse(out.join(''))).toMatchObject({ status: 'passed', testName: 'checkout' })
    expect(err.join('')).toBe('used [secret SHOP_PASSWORD]\n')
    expect(status).toBe(0)
  }, 150_000)
})
