// Follows the conversation from OpenCode's bus events so chat.message can build its query
// from the last assistant answer: roles come from message.updated, text from
// message.part.updated. Bounded: only the latest assistant message per session is kept.

interface EventLike {
  type: string;
  properties?: Record<string, any>;
}

export class ConversationTracker {
  private readonly roles = new Map<string, string>();
  private readonly lastAssistant = new Map<string, { messageID: string; parts: Map<string, string> }>();

  /** User message ids seen in chat.message: parts of these are never assistant text. */
  noteUserMessage(messageID: string): void {
    this.roles.set(messageID, "user");
  }

  observe(event: EventLike): void {
    const p = event.properties ?? {};
    if (event.type === "message.updated" && p.info?.id && p.info?.role) {
      this.roles.set(p.info.id, p.info.role);
      if (this.roles.size > 2000) this.roles.delete(this.roles.keys().next().value as string);
      return;
    }
    if (event.type !== "message.part.updated") return;
    const part = p.part;
    if (!part || part.type !== "text" || part.synthetic || typeof part.text !== "string") return;
    if (this.roles.get(part.messageID) !== "assistant") return;
    const current = this.lastAssistant.get(part.sessionID);
    if (!current || current.messageID !== part.messageID) {
      this.lastAssistant.set(part.sessionID, { messageID: part.messageID, parts: new Map([[part.id, part.text]]) });
    } else {
      current.parts.set(part.id, part.text);
    }
  }

  lastAssistantText(sessionID: string): string | undefined {
    const m = this.lastAssistant.get(sessionID);
    return m ? [...m.parts.values()].join("\n") : undefined;
  }
}

/** The session an event belongs to, wherever OpenCode put it. */
export function eventSessionID(event: EventLike): string | null {
  const p = event.properties ?? {};
  return p.sessionID ?? p.info?.sessionID ?? p.part?.sessionID ?? (event.type.startsWith("session.") ? p.info?.id : undefined) ?? null;
}
