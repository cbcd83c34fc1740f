import { useState } from 'preact/hooks'
import { api } from '../api.ts'
import { Confirm, Dialog } from '../components/dialog.tsx'
import { Field, Form } from '../components/form.tsx'
import { Empty, ErrorText, Loading } from '../components/status.tsx'
import { useOrg } from '../org.ts'
import { useAction } from '../use-action.ts'
import {
  AlertingHeader,
  type Channel,
  CheckGroup,
  channelNames,
  minutes,
  type Policy,
  useChannels,
  usePolicies,
} from './alerting-shared.tsx'
import './screens.css'

export default function AlertingPolicies() {
  const { current } = useOrg()
  const policies = usePolicies(current.id)
  const channels = useChannels(current.id)
  const [editing, setEditing] = useState<Policy | 'new' | undefined>(undefined)
  const [deleting, setDeleting] = useState<Policy | undefined>(undefined)
  const action = useAction()

  const remove = async () => {
    const policy = deleting
    setDeleting(undefined)
    if (!policy) return
    const answer = await action.run(() => api.del(`/api/escalation-policies/${encodeURIComponent(policy.id)}`))
    if (answer !== undefined) policies.reload()
  }

  return (
    <section class="screen">
      <AlertingHeader
        actions={
          <button type="button" class="primary" onClick={() => setEditing('new')}>
            Add a policy
          </button>
        }
      />
      <p class="muted">
        While nobody acknowledges an incident, a route's policy calls its steps' channels, each so many minutes after
        the incident opened; then, if it repeats, it starts over.
      </p>
      {action.error ? <ErrorText error={action.error} /> : null}
      {policies.error ? <ErrorText error={policies.error} retry={policies.reload} /> : null}
      {!policies.data ? (
        policies.error ? null : (
          <Loading label="Loading policies…" />
        )
      ) : policies.data.length === 0 ? (
        <Empty title="No escalation policies yet">
          <p>Create one, then pick it on a route.</p>
        </Empty>
      ) : (
        <ul class="components" aria-label="Escalation policies">
          {policies.data.map((policy) => (
            <li key={policy.id}>
              <div class="component-name">
                {policy.name}
                <ol class="muted alerting-detail alerting-steps">
                  {policy.steps.map((step, index) => (
                    <li key={index}>
                      after {minutes(step.afterMinutes)} → {channelNames(step.channelIds, channels.data)}
                    </li>
                  ))}
                </ol>
                <div class="muted alerting-detail">
                  {policy.repeat
                    ? `Repeats ${policy.repeat} time${policy.repeat === 1 ? '' : 's'}, ${minutes(policy.repeatAfterMinutes)} after the last step`
                    : 'Does not repeat'}
                </div>
              </div>
              <div class="component-actions">
                <button
                  type="button"
                  class="link"
                  aria-label={`Edit ${policy.name}`}
                  onClick={() => setEditing(policy)}
                >
                  Edit
                </button>
                <button
                  type="button"
                  class="link"
                  aria-label={`Delete ${policy.name}`}
                  onClick={() => setDeleting(policy)}
                  disabled={action.busy}
                >
                  Delete
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
      {editing ? (
        <PolicyDialog
          policy={editing === 'new' ? undefined : editing}
          channels={channels.data ?? []}
          onClose={(changed) => {
            setEditing(undefined)
            if (changed) policies.reload()
          }}
        />
      ) : null}
      <Confirm
        open={deleting !== undefined}
        title={`Delete ${deleting?.name ?? 'this policy'}?`}
        message="Routes using it stop escalating; escalations under way stop at their next step."
        confirmLabel="Delete policy"
        onConfirm={remove}
        onClose={() => setDeleting(undefined)}
      />
    </section>
  )
}

interface StepDraft {
  afterMinutes: string
  channelIds: string[]
}

function PolicyDialog({
  policy,
  channels,
  onClose,
}: {
  policy: Policy | undefined
  channels: Channel[]
  onClose: (changed: boolean) => void
}) {
  const [name, setName] = useState(policy?.name ?? '')
  const [steps, setSteps] = useState<StepDraft[]>(
    policy?.steps.map((step) => ({ afterMinutes: String(step.afterMinutes), channelIds: step.channelIds })) ?? [
      { afterMinutes: '5', channelIds: [] },
    ],
  )
  const [repeat, setRepeat] = useState(String(policy?.repeat ?? 0))
  const [repeatAfter, setRepeatAfter] = useState(String(policy?.repeatAfterMinutes ?? 30))
  const options = channels.map((channel) => [channel.id, channel.name] as const)

  const change = (index: number, next: Partial<StepDraft>) =>
    setSteps(steps.map((step, at) => (at === index ? { ...step, ...next } : step)))
  const add = () => {
    const last = Number(steps.at(-1)?.afterMinutes ?? 0)
    setSteps([...steps, { afterMinutes: String(last + 10), channelIds: [] }])
  }
  // The times stay in their places, so they keep increasing: moving a step changes who is called when.
  const move = (index: number, by: -1 | 1) => {
    const next = steps.map((step) => ({ ...step }))
    const other = index + by
    const channelIds = next[index]!.channelIds
    next[index]!.channelIds = next[other]!.channelIds
    next[other]!.channelIds = channelIds
    setSteps(next)
  }
  const submit = async () => {
    const body = {
      name,
      steps: steps.map((step) => ({ afterMinutes: Number(step.afterMinutes), channelIds: step.channelIds })),
      repeat: Number(repeat),
      repeatAfterMinutes: Number(repeatAfter),
    }
    if (policy) await api.put(`/api/escalation-policies/${encodeURIComponent(policy.id)}`, body)
    else await api.post('/api/escalation-policies', body)
    onClose(true)
  }

  return (
    <Dialog open title={policy ? `Edit ${policy.name}` : 'Add an escalation policy'} onClose={() => onClose(false)}>
      <Form onSubmit={submit} submitLabel={policy ? 'Save policy' : 'Create policy'} onCancel={() => onClose(false)}>
        <Field label="Policy name">
          {(id) => (
            <input id={id} required maxLength={100} value={name} onInput={(e) => setName(e.currentTarget.value)} />
          )}
        </Field>
        {steps.map((step, index) => (
          <fieldset key={index}>
            <legend>Step {index + 1}</legend>
            <Field label={`Step ${index + 1}: after (minutes)`} hint="Counted from the incident's opening; 0.5 is 30 s">
              {(id, describedBy) => (
                <input
                  id={id}
                  aria-describedby={describedBy}
                  type="number"
                  min={0}
                  step="any"
                  required
                  value={step.afterMinutes}
                  onInput={(e) => change(index, { afterMinutes: e.currentTarget.value })}
                />
              )}
            </Field>
            <CheckGroup
              legend={`Step ${index + 1}: channels`}
              options={options}
              value={step.channelIds}
              onChange={(channelIds) => change(index, { channelIds })}
            />
            <div class="component-actions">
              <button type="button" onClick={() => move(index, -1)} disabled={index === 0}>
                Move up
              </button>
              <button type="button" onClick={() => move(index, 1)} disabled={index === steps.length - 1}>
                Move down
              </button>
              <button
                type="button"
                class="danger"
                onClick={() => setSteps(steps.filter((_, at) => at !== index))}
                disabled={steps.length === 1}
              >
                Remove step
              </button>
            </div>
          </fieldset>
        ))}
        <div>
          <button type="button" onClick={add} disabled={steps.length >= 10}>
            Add a step
          </button>
        </div>
        <div class="row">
          <Field label="Repeat (times)" hint="Runs the whole policy again after its last step">
            {(id, describedBy) => (
              <input
                id={id}
                aria-describedby={describedBy}
                type="number"
                min={0}
                max={10}
                step={1}
                value={repeat}
                onInput={(e) => setRepeat(e.currentTarget.value)}
              />
            )}
          </Field>
          <Field label="Repeat after (minutes)" hint="Pause after the last step before repeating">
            {(id, describedBy) => (
              <input
                id={id}
                aria-describedby={describedBy}
                type="number"
                min={0.05}
                step="any"
                value={repeatAfter}
                onInput={(e) => setRepeatAfter(e.currentTarget.value)}
              />
            )}
          </Field>
        </div>
      </Form>
    </Dialog>
  )
}
