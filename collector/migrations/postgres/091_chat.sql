-- Assistant conversations: each belongs to the user and organization that started it, and only
-- that user ever reads it.
CREATE TABLE monitoring.chat_conversations (
  id text PRIMARY KEY,
  organization_id text NOT NULL,
  user_id text NOT NULL,
  title text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX chat_conversations_owner_idx ON monitoring.chat_conversations (user_id, organization_id, updated_at DESC);

CREATE TABLE monitoring.chat_messages (
  id text PRIMARY KEY,
  conversation_id text NOT NULL REFERENCES monitoring.chat_conversations (id) ON DELETE CASCADE,
  role text NOT NULL CHECK (role IN ('user', 'assistant')),
  content text NOT NULL,
  position integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (conversation_id, position)
);
