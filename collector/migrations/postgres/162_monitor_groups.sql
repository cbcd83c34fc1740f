-- Groups (README "Groups"): an organization's monitors and devices in a tree of at most three
-- levels; a group's state is derived from its members' by its rule.
CREATE TABLE monitoring.monitor_groups (
  id text PRIMARY KEY,
  organization_id text NOT NULL,
  name text NOT NULL,
  -- Deleting a group moves its child groups to the top level rather than deleting them.
  parent_id text REFERENCES monitoring.monitor_groups (id) ON DELETE SET NULL,
  -- all: up only when every member is up; any: down when one is; percent: down from rule_percent % down.
  rule text NOT NULL DEFAULT 'all' CHECK (rule IN ('all', 'any', 'percent')),
  rule_percent smallint CHECK (rule_percent BETWEEN 1 AND 100),
  description text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (organization_id, name),
  CHECK ((rule = 'percent') = (rule_percent IS NOT NULL))
);
CREATE INDEX monitor_groups_parent_idx ON monitoring.monitor_groups (parent_id) WHERE parent_id IS NOT NULL;

-- A monitor or device belongs to at most one group; deleting the group leaves it ungrouped.
ALTER TABLE monitoring.monitors
  ADD COLUMN group_id text REFERENCES monitoring.monitor_groups (id) ON DELETE SET NULL;
ALTER TABLE monitoring.devices
  ADD COLUMN group_id text REFERENCES monitoring.monitor_groups (id) ON DELETE SET NULL;
CREATE INDEX monitors_group_idx ON monitoring.monitors (group_id) WHERE group_id IS NOT NULL;
CREATE INDEX devices_group_idx ON monitoring.devices (group_id) WHERE group_id IS NOT NULL;
