import { useState } from 'preact/hooks'
import { api, type Envelope } from '../api.ts'
import { Confirm } from '../components/dialog.tsx'
import { Field, Form } from '../components/form.tsx'
import { Secret } from '../components/secret.tsx'
import { Empty, ErrorText, Loading } from '../components/status.tsx'
import { Table } from '../components/table.tsx'
import { Time } from '../components/time.tsx'
import { useResource } from '../components/use-api.ts'
import { useOrg } from '../org.ts'
import { sessionState } from '../session.ts'
import { useAction } from '../use-action.ts'
import { type MembershipRole, type OrganizationSettings, ROLE_LABEL, SettingsHeader } from './settings-nav.tsx'

interface Member {
  userId: string
  email: string
  name: string
  role: MembershipRole
  createdAt: string
}

interface Invitation {
  id: string
  email: string
  role: MembershipRole
  createdAt: string
  expiresAt: string
  status: 'pending' | 'accepted' | 'revoked' | 'expired'
}

interface Issued {
  invitation: Invitation
  link?: string
  emailed: boolean
}

const ROLES: MembershipRole[] = ['owner', 'admin', 'member', 'viewer']

/** The roles `myRole` may hand out, as identity allows them: only an owner makes owners. */
const grantable = (myRole: MembershipRole | null): MembershipRole[] =>
  myRole === 'owner' || myRole === null ? ROLES : ROLES.filter((role) => role !== 'owner')

/** Whether `myRole` may change or remove a member holding `role` (identity has the last word). */
const mayManage = (myRole: MembershipRole | null, role: MembershipRole) =>
  myRole === null || myRole === 'owner' || (myRole === 'admin' && role !== 'owner')

export default function SettingsMembers() {
  const { current } = useOrg()
  const me = sessionState.get()?.user.id
  const organization = useResource(
    () => api.get<Envelope<OrganizationSettings>>('/api/organization').then((body) => body.data),
    [current.id],
  )
  const members = useResource(
    () => api.get<Envelope<Member[]>>('/api/organization/members').then((body) => body.data),
    [current.id],
  )
  const myRole = organization.data?.myRole ?? null
  const manager = organization.data !== undefined && (myRole === null || myRole === 'owner' || myRole === 'admin')
  const action = useAction()
  const [changed, setChanged] = useState('')
  const [removing, setRemoving] = useState<Member | undefined>(undefined)

  const changeRole = async (member: Member, role: MembershipRole) => {
    setChanged('')
    const done = await action.run(() =>
      api.patch<Envelope<Member>>(`/api/organization/members/${encodeURIComponent(member.userId)}`, { role }),
    )
    if (done) setChanged(`${member.name || member.email} is now ${ROLE_LABEL[done.data.role].toLowerCase()}.`)
    members.reload()
    if (member.userId === me) organization.reload()
  }
  const remove = async () => {
    const member = removing
    setRemoving(undefined)
    if (!member) return
    setChanged('')
    const done = await action.run(() => api.del(`/api/organization/members/${encodeURIComponent(member.userId)}`))
    if (done !== undefined) setChanged(`${member.name || member.email} was removed from ${current.name}.`)
    members.reload()
  }

  return (
    <section class="screen">
      <SettingsHeader />
      <section class="settings-section" aria-labelledby="members-heading">
        <h2 id="members-heading">Members</h2>
        {!manager && organization.data ? (
          <p class="muted">Only owners and admins change roles, remove members and invite people.</p>
        ) : null}
        {action.error ? <ErrorText error={action.error} /> : null}
        <p class="done" role="status">
          {changed}
        </p>
        {members.error ? <ErrorText error={members.error} retry={members.reload} /> : null}
        {organization.error ? <ErrorText error={organization.error} retry={organization.reload} /> : null}
        {!members.data ? (
          members.error ? null : (
            <Loading label="Loading members…" />
          )
        ) : (
          <Table
            caption="Members of the organization"
            rows={members.data}
            rowKey={(member) => member.userId}
            columns={[
              {
                header: 'Name',
                cell: (member) => (
                  <>
                    {member.name || member.email}
                    {member.userId === me ? <span class="muted"> (you)</span> : null}
                  </>
                ),
              },
              { header: 'Email', secondary: true, cell: (member) => member.email },
              {
                header: 'Role',
                cell: (member) =>
                  manager && mayManage(myRole, member.role) ? (
                    <select
                      class="role-select"
                      aria-label={`Role of ${member.name || member.email}`}
                      value={member.role}
                      disabled={action.busy}
                      onChange={(event) => void changeRole(member, event.currentTarget.value as MembershipRole)}
                    >
                      {grantable(myRole).map((role) => (
                        <option key={role} value={role}>
                          {ROLE_LABEL[role]}
                        </option>
                      ))}
                    </select>
                  ) : (
                    ROLE_LABEL[member.role]
                  ),
              },
              { header: 'Joined', secondary: true, cell: (member) => <Time value={member.createdAt} /> },
              ...(manager
                ? [
                    {
                      header: 'Actions',
                      cell: (member: Member) =>
                        mayManage(myRole, member.role) ? (
                          <button
                            type="button"
                            class="link"
                            aria-label={`Remove ${member.name || member.email}`}
                            disabled={action.busy}
                            onClick={() => setRemoving(member)}
                          >
                            Remove
                          </button>
                        ) : null,
                    },
                  ]
                : []),
            ]}
          />
        )}
      </section>
      {manager ? <Invitations myRole={myRole} organizationId={current.id} /> : null}
      <Confirm
        open={removing !== undefined}
        title={`Remove ${removing?.name || removing?.email || 'this member'}?`}
        message={`They lose access to ${current.name} at once here and in identity; their own API keys stop working. Invite them again to undo.`}
        confirmLabel="Remove member"
        onConfirm={remove}
        onClose={() => setRemoving(undefined)}
      />
    </section>
  )
}

function Invitations({ myRole, organizationId }: { myRole: MembershipRole | null; organizationId: string }) {
  const invitations = useResource(
    () => api.get<Envelope<Invitation[]>>('/api/organization/invitations').then((body) => body.data),
    [organizationId],
  )
  const [email, setEmail] = useState('')
  const [role, setRole] = useState<MembershipRole>('member')
  const [issued, setIssued] = useState<Issued | undefined>(undefined)
  const [revoking, setRevoking] = useState<Invitation | undefined>(undefined)
  const action = useAction()

  const invite = async () => {
    setIssued(undefined)
    const answer = await api.post<Envelope<Issued>>('/api/organization/invitations', { email, role })
    setIssued(answer.data)
    setEmail('')
    invitations.reload()
  }
  const revoke = async () => {
    const invitation = revoking
    setRevoking(undefined)
    if (!invitation) return
    await action.run(() => api.del(`/api/organization/invitations/${encodeURIComponent(invitation.id)}`))
    invitations.reload()
  }
  const pending = invitations.data?.filter((invitation) => invitation.status === 'pending')

  return (
    <section class="settings-section" aria-labelledby="invite-heading">
      <h2 id="invite-heading">Invitations</h2>
      <Form onSubmit={invite} submitLabel="Invite" busyLabel="Inviting…">
        <div class="grid-2">
          <Field label="Email" hint="They set a name and password, or sign in, from the link">
            {(id, describedBy) => (
              <input
                id={id}
                type="email"
                aria-describedby={describedBy}
                required
                maxLength={320}
                value={email}
                onInput={(event) => setEmail(event.currentTarget.value)}
              />
            )}
          </Field>
          <Field label="Role">
            {(id) => (
              <select id={id} value={role} onChange={(event) => setRole(event.currentTarget.value as MembershipRole)}>
                {grantable(myRole).map((value) => (
                  <option key={value} value={value}>
                    {ROLE_LABEL[value]}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </div>
      </Form>
      {issued ? (
        <div class="one-time invitation-issued" role="status">
          {issued.link ? (
            <>
              <p>
                Send this link to <strong>{issued.invitation.email}</strong>: it is shown <strong>once</strong>, works
                once and expires <Time value={issued.invitation.expiresAt} mode="full" />.
              </p>
              <Secret label="Invitation link" value={issued.link} />
            </>
          ) : (
            <p class="done">An e-mail with the link went to {issued.invitation.email}.</p>
          )}
        </div>
      ) : null}
      <h3>Pending</h3>
      {action.error ? <ErrorText error={action.error} /> : null}
      {invitations.error ? <ErrorText error={invitations.error} retry={invitations.reload} /> : null}
      {!pending ? (
        invitations.error ? null : (
          <Loading label="Loading invitations…" lines={2} />
        )
      ) : pending.length === 0 ? (
        <Empty title="No pending invitations" />
      ) : (
        <Table
          caption="Pending invitations"
          rows={pending}
          rowKey={(invitation) => invitation.id}
          columns={[
            { header: 'Email', cell: (invitation) => invitation.email },
            { header: 'Role', cell: (invitation) => ROLE_LABEL[invitation.role] },
            { header: 'Sent', secondary: true, cell: (invitation) => <Time value={invitation.createdAt} /> },
            { header: 'Expires', secondary: true, cell: (invitation) => <Time value={invitation.expiresAt} /> },
            {
              header: 'Actions',
              cell: (invitation) => (
                <button
                  type="button"
                  class="link"
                  aria-label={`Revoke the invitation of ${invitation.email}`}
                  disabled={action.busy}
                  onClick={() => setRevoking(invitation)}
                >
                  Revoke
                </button>
              ),
            },
          ]}
        />
      )}
      <Confirm
        open={revoking !== undefined}
        title={`Revoke the invitation of ${revoking?.email ?? 'this address'}?`}
        message="Its link stops working at once. You can invite the address again."
        confirmLabel="Revoke invitation"
        onConfirm={revoke}
        onClose={() => setRevoking(undefined)}
      />
    </section>
  )
}
