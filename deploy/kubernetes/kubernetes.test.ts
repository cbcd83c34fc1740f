import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { serviceAvailable } from '@guard/shared/testing'
import type { IContainer, IPodTemplateSpec, IProbe } from 'kubernetes-models/v1'
import { beforeAll, describe, expect, it } from 'vitest'
import { parseAllDocuments } from 'yaml'
// The env modules alone: the packages' entry points would load every service for a list of names.
import { parseAgentEnv } from '../../agent/src/env.ts'
import { collectorEnvSchema } from '../../collector/src/env.ts'
import { identityEnvSchema } from '../../identity/src/env.ts'
import { probeEnvSchema } from '../../probe/src/env.ts'

// Every overlay rendered by kubectl's kustomize, then each object checked against the Kubernetes API
// schemas of kubernetes-models (pinned in package.json, generated from Kubernetes 1.36's OpenAPI;
// nothing is downloaded) and against the rules Guard's processes need: non-root, read-only, sized,
// probed on their health routes, secrets only by reference, a NetworkPolicy each, and only
// variables their env schemas know.

const here = dirname(fileURLToPath(import.meta.url))
const overlays = ['one-region', 'three-regions', 'embedded', 'cluster'] as const
const kubectl = serviceAvailable('kubectl', ['/usr/bin/kubectl'])

interface KubeObject {
  apiVersion: string
  kind: string
  metadata: { name: string; labels?: Record<string, string> }
  spec?: Record<string, unknown>
  data?: Record<string, string>
}

interface Workload extends KubeObject {
  spec: { template: IPodTemplateSpec }
}

// GA versions only: the beta ones kubernetes-models still carries are no longer served.
const servedApis = new Set(['v1', 'apps/v1', 'autoscaling/v2', 'policy/v1', 'networking.k8s.io/v1'])
const workloadKinds = new Set(['Deployment', 'StatefulSet', 'DaemonSet'])

type Role = 'start' | 'identity' | 'collector' | 'probe' | 'agent'

const keysOf = (schema: { shape: Record<string, unknown> }) => Object.keys(schema.shape)
const knownEnv: Record<Role, Set<string>> = {
  identity: new Set(keysOf(identityEnvSchema)),
  collector: new Set(keysOf(collectorEnvSchema)),
  probe: new Set(keysOf(probeEnvSchema)),
  agent: new Set(Object.keys(parseAgentEnv({}))),
  start: new Set([...keysOf(identityEnvSchema), ...keysOf(collectorEnvSchema), ...keysOf(probeEnvSchema)]),
}
const healthPath: Record<Role, string | undefined> = {
  start: '/api/health',
  identity: '/api/health',
  collector: '/api/health',
  probe: '/healthz',
  agent: undefined,
}

/** The `guard` command a container runs: its first argument, or the one its shell script runs. */
function roleOf(container: IContainer): Role {
  const words = [...(container.command ?? []), ...(container.args ?? [])]
  const role = container.command ? /bin\/guard\.mjs (\w+)/.exec(words.join(' '))?.[1] : words[0]
  if (!role || !(role in knownEnv)) throw new Error(`${container.name}: runs no guard command (${words.join(' ')})`)
  return role as Role
}

function render(overlay: string): KubeObject[] {
  const text = execFileSync(kubectl!, ['kustomize', join(here, 'overlays', overlay)], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  return parseAllDocuments(text)
    .map((document) => document.toJSON() as KubeObject | null)
    .filter((object): object is KubeObject => object !== null)
}

/** The model class of apiVersion and kind, whose validate() throws what the schema refuses. */
async function modelOf(object: KubeObject): Promise<new (data: KubeObject) => { validate(): void }> {
  const module = (await import(`kubernetes-models/${object.apiVersion}/${object.kind}`)) as Record<
    string,
    new (
      data: KubeObject,
    ) => { validate(): void }
  >
  const model = module[object.kind]
  if (!model) throw new Error(`no model for ${object.apiVersion} ${object.kind}`)
  return model
}

const workloadsOf = (objects: KubeObject[]) =>
  objects.filter((object): object is Workload => workloadKinds.has(object.kind))
const containersOf = (workload: Workload) => [
  ...(workload.spec.template.spec?.initContainers ?? []),
  ...(workload.spec.template.spec?.containers ?? []),
]
const named = (objects: KubeObject[], kind: string) =>
  new Map(objects.filter((object) => object.kind === kind).map((object) => [object.metadata.name, object]))

/** Variables a secret is made of: never a literal in a manifest. */
const SECRET_NAME = /PASSWORD|SECRET|TOKEN|_KEY$|DATABASE_URL|SMTP_URL/
/** A URL with credentials in it. */
const CREDENTIAL_URL = /\/\/[^/\s@]+:[^/\s@]+@/

const rendered = new Map<string, KubeObject[]>()
beforeAll(() => {
  if (!kubectl) return
  for (const overlay of overlays) rendered.set(overlay, render(overlay))
})

describe.skipIf(!kubectl).each(overlays)('the %s overlay', (overlay) => {
  const objects = () => rendered.get(overlay)!

  it('renders only objects that the Kubernetes API schemas accept', async () => {
    expect(objects().length).toBeGreaterThan(4)
    for (const object of objects()) {
      expect(servedApis, `${object.kind} ${object.metadata.name}`).toContain(object.apiVersion)
      const Model = await modelOf(object)
      expect(() => new Model(object).validate(), `${object.kind} ${object.metadata.name}`).not.toThrow()
    }
  })

  it('runs every container of the tagged image as a non-root user on a read-only root filesystem, with resource requests', () => {
    for (const workload of workloadsOf(objects())) {
      const pod = workload.spec.template.spec!.securityContext ?? {}
      for (const container of containersOf(workload)) {
        const where = `${workload.metadata.name}/${container.name}`
        const security = { ...pod, ...container.securityContext }
        expect(security.runAsNonRoot, where).toBe(true)
        expect(security.runAsUser, where).toBeGreaterThan(0)
        expect(container.securityContext?.readOnlyRootFilesystem, where).toBe(true)
        expect(container.securityContext?.allowPrivilegeEscalation, where).toBe(false)
        expect(container.securityContext?.capabilities?.drop, where).toEqual(['ALL'])
        expect(container.resources?.requests?.cpu, where).toBeTruthy()
        expect(container.resources?.requests?.memory, where).toBeTruthy()
        expect(container.image, where).toMatch(/^guard:\d+\.\d+\.\d+$/)
      }
    }
  })

  it('checks readiness and liveness on each process health route', () => {
    for (const workload of workloadsOf(objects())) {
      for (const container of workload.spec.template.spec!.containers) {
        const path = healthPath[roleOf(container)]
        if (!path) continue
        const ports = new Set((container.ports ?? []).flatMap((port) => [port.name, port.containerPort]))
        for (const probe of [container.readinessProbe, container.livenessProbe] as (IProbe | undefined)[]) {
          expect(probe?.httpGet?.path, `${workload.metadata.name}/${container.name}`).toBe(path)
          expect(ports).toContain(probe?.httpGet?.port)
        }
      }
    }
  })

  it('takes every secret from a Kubernetes Secret by reference, never as a literal', () => {
    expect(objects().filter((object) => object.kind === 'Secret')).toEqual([])
    for (const configMap of named(objects(), 'ConfigMap').values()) {
      for (const [name, value] of Object.entries(configMap.data ?? {})) {
        expect(name, configMap.metadata.name).not.toMatch(SECRET_NAME)
        expect(value, `${configMap.metadata.name} ${name}`).not.toMatch(CREDENTIAL_URL)
      }
    }
    for (const workload of workloadsOf(objects())) {
      for (const container of containersOf(workload)) {
        for (const variable of container.env ?? []) {
          if (!SECRET_NAME.test(variable.name)) continue
          expect(variable.value, `${container.name} ${variable.name}`).toBeUndefined()
          expect(variable.valueFrom?.secretKeyRef, `${container.name} ${variable.name}`).toBeDefined()
        }
      }
    }
  })

  it('gives every component a NetworkPolicy of its own, closing both directions', () => {
    const policies = objects().filter((object) => object.kind === 'NetworkPolicy')
    for (const workload of workloadsOf(objects())) {
      const labels = workload.spec.template.metadata?.labels ?? {}
      const own = policies.filter((policy) => {
        const selector =
          (policy.spec?.podSelector as { matchLabels?: Record<string, string> } | undefined)?.matchLabels ?? {}
        const pairs = Object.entries(selector)
        return pairs.length > 0 && pairs.every(([key, value]) => labels[key] === value)
      })
      expect(own.length, workload.metadata.name).toBeGreaterThan(0)
      expect(own.flatMap((policy) => policy.spec?.policyTypes as string[])).toEqual(
        expect.arrayContaining(['Ingress', 'Egress']),
      )
    }
  })

  it('sets only variables the process env schema knows', () => {
    const configMaps = named(objects(), 'ConfigMap')
    for (const workload of workloadsOf(objects())) {
      for (const container of containersOf(workload)) {
        const known = knownEnv[roleOf(container)]
        // The kubelet substitutes $(NAME) in command and args; the process never reads NAME.
        const substituted = new Set(
          [...(container.command ?? []), ...(container.args ?? [])].flatMap((word) =>
            [...word.matchAll(/\$\((\w+)\)/g)].map((match) => match[1]),
          ),
        )
        const names = [
          ...(container.env ?? []).map((variable) => variable.name),
          ...(container.envFrom ?? []).flatMap((source) => {
            expect(source.secretRef, 'a Secret whose keys cannot be checked here').toBeUndefined()
            const configMap = configMaps.get(source.configMapRef?.name ?? '')
            expect(configMap, source.configMapRef?.name).toBeDefined()
            return Object.keys(configMap?.data ?? {})
          }),
        ]
        for (const name of names.filter((name) => !substituted.has(name))) {
          expect(known, `${workload.metadata.name}/${container.name} sets ${name}`).toContain(name)
        }
      }
    }
  })
})

describe.skipIf(!kubectl)('what each overlay runs', () => {
  const locations = (overlay: string) =>
    workloadsOf(rendered.get(overlay)!)
      .flatMap((workload) => workload.spec.template.spec!.containers)
      .filter((container) => roleOf(container) === 'probe')
      .map((container) => container.env?.find((variable) => variable.name === 'GUARD_PROBE_LOCATION')?.value)

  it('runs one probe in one region and one per location in three, each pinned to its region', () => {
    expect(locations('one-region')).toEqual(['fra'])
    expect(locations('three-regions').sort()).toEqual(['fra', 'iad', 'sin'])
    for (const workload of workloadsOf(rendered.get('three-regions')!).filter((w) => w.kind === 'StatefulSet')) {
      const terms = workload.spec.template.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution
      expect(terms?.nodeSelectorTerms[0]?.matchExpressions?.[0]?.key).toBe('topology.kubernetes.io/region')
    }
  })

  it('scales the collector on CPU and keeps one up through disruptions, with the agent on every node', () => {
    for (const overlay of ['one-region', 'three-regions', 'cluster']) {
      const objects = rendered.get(overlay)!
      const autoscaler = named(objects, 'HorizontalPodAutoscaler').get('collector')
      expect(autoscaler?.spec?.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'collector' })
      expect(JSON.stringify(autoscaler?.spec?.metrics)).toContain('"name":"cpu"')
      expect(named(objects, 'PodDisruptionBudget').get('collector')?.spec?.minAvailable).toBeGreaterThanOrEqual(1)
      expect(workloadsOf(objects).find((workload) => workload.kind === 'DaemonSet')?.metadata.name).toBe('agent')
    }
  })

  it('runs guard start in one pod with its data directory on a PersistentVolumeClaim', () => {
    const objects = rendered.get('embedded')!
    const [guard, ...others] = workloadsOf(objects)
    expect(others).toEqual([])
    const container = guard!.spec.template.spec!.containers[0]!
    expect(roleOf(container)).toBe('start')
    expect(guard!.spec).toMatchObject({ replicas: 1, strategy: { type: 'Recreate' } })
    const dataDir = container.env?.find((variable) => variable.name === 'GUARD_DATA_DIR')?.value
    const mount = container.volumeMounts?.find((volumeMount) => volumeMount.mountPath === dataDir)
    const volume = guard!.spec.template.spec!.volumes?.find((candidate) => candidate.name === mount?.name)
    expect(named(objects, 'PersistentVolumeClaim').has(volume?.persistentVolumeClaim?.claimName ?? '')).toBe(true)
  })

  it('runs the clustered set-up on a 3-node NATS cluster with streams at 3 replicas, 2 PostgreSQL instances and a ClickHouse server', () => {
    const objects = rendered.get('cluster')!
    expect(locations('cluster').sort()).toEqual(['fra', 'iad', 'sin'])
    const file = (name: string) =>
      parseAllDocuments(readFileSync(join(here, 'overlays', 'cluster', name), 'utf8')).map(
        (document) => document.toJSON() as KubeObject & { config?: { cluster?: { replicas?: number } } },
      )
    const natsNodes = file('nats-values.yaml')[0]!.config?.cluster?.replicas
    expect(natsNodes).toBe(3)
    for (const name of ['guard-collector', 'guard-probe']) {
      const data = named(objects, 'ConfigMap').get(name)?.data ?? {}
      expect(data.GUARD_STREAM_REPLICAS, name).toBe(String(natsNodes))
      const servers = data.NATS_URL?.split(',') ?? []
      expect(servers, name).toEqual(
        Array.from({ length: natsNodes! }, (_, index) => `nats://nats-${index}.nats-headless.nats.svc:4222`),
      )
      expect(() => collectorEnvSchema.shape.NATS_URL.parse(data.NATS_URL), name).not.toThrow()
    }
    expect(named(objects, 'HorizontalPodAutoscaler').get('collector')?.spec?.minReplicas).toBe(3)
    expect(named(objects, 'PodDisruptionBudget').get('collector')?.spec?.minAvailable).toBe(2)
    // The operators' objects, applied apart (their kinds are unknown until the operators run).
    const [postgres] = file('postgres-cluster.yaml')
    expect(postgres).toMatchObject({ apiVersion: 'postgresql.cnpg.io/v1', kind: 'Cluster', spec: { instances: 2 } })
    const [clickhouse] = file('clickhouse-installation.yaml')
    expect(clickhouse).toMatchObject({ apiVersion: 'clickhouse.altinity.com/v1', kind: 'ClickHouseInstallation' })
    const databaseUrl = workloadsOf(objects)
      .flatMap((workload) => workload.spec.template.spec!.containers)
      .find((container) => roleOf(container) === 'collector')
      ?.env?.find((variable) => variable.name === 'DATABASE_URL')
    expect(databaseUrl?.valueFrom?.secretKeyRef).toEqual({ name: `${postgres!.metadata.name}-app`, key: 'uri' })
    expect(named(objects, 'ConfigMap').get('guard-collector')?.data?.CLICKHOUSE_URL).toBe(
      `http://clickhouse-${clickhouse!.metadata.name}:8123`,
    )
  })

  it('names the Secret and Services that the operators examples make', () => {
    const text = (file: string) => readFileSync(join(here, 'operators', file), 'utf8')
    const [postgres] = parseAllDocuments(text('postgres-cluster.yaml')).map((d) => d.toJSON() as KubeObject)
    const [clickhouse] = parseAllDocuments(text('clickhouse-installation.yaml')).map((d) => d.toJSON() as KubeObject)
    const objects = rendered.get('one-region')!
    const collector = named(objects, 'ConfigMap').get('guard-collector')
    const databaseUrl = workloadsOf(objects)
      .flatMap((workload) => workload.spec.template.spec!.containers)
      .find((container) => roleOf(container) === 'collector')
      ?.env?.find((variable) => variable.name === 'DATABASE_URL')
    // CloudNativePG names the application's Secret <cluster>-app; Altinity's Service is clickhouse-<name>.
    expect(databaseUrl?.valueFrom?.secretKeyRef).toEqual({ name: `${postgres!.metadata.name}-app`, key: 'uri' })
    expect(collector?.data?.CLICKHOUSE_URL).toBe(`http://clickhouse-${clickhouse!.metadata.name}:8123`)
  })
})
