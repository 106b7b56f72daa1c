import { Action, ActionPanel, Detail, Icon, Keyboard, LaunchProps } from "@raycast/api";
import { useEffect, useRef, useState } from "react";
import { Answer, ask, emptyAnswer, GdsNotFound } from "./gds";
import { answerMarkdown, sourceLabel } from "./answer";
import { askOptions } from "./preferences";

const digits = ["1", "2", "3", "4", "5", "6", "7", "8", "9"] as const;

export default function AskDrive(props: LaunchProps<{ arguments: { question: string } }>) {
  const question = props.arguments.question.trim();
  const options = useRef(askOptions()).current;
  const [answer, setAnswer] = useState<Answer>(emptyAnswer);
  const [running, setRunning] = useState(true);
  const abort = useRef<AbortController | undefined>(undefined);

  useEffect(() => {
    const ctl = new AbortController();
    abort.current = ctl;
    ask(options, question, setAnswer, ctl.signal)
      .catch((err: Error) => {
        if (ctl.signal.aborted || err.name === "AbortError") return;
        const hint = err instanceof GdsNotFound ? "Set the path of gds in the extension's preferences." : undefined;
        setAnswer((a) => ({ ...a, done: true, error: { message: err.message, hint } }));
      })
      .finally(() => setRunning(false));
    return () => ctl.abort();
  }, [question]);

  return (
    <Detail
      isLoading={running}
      navigationTitle={question}
      markdown={answerMarkdown(question, answer)}
      metadata={
        answer.sources.length ? (
          <Detail.Metadata>
            {answer.sources.map((s) =>
              s.link ? (
                <Detail.Metadata.Link key={s.ref} title={`[${s.ref}]`} target={s.link} text={s.name} />
              ) : (
                <Detail.Metadata.Label key={s.ref} title={`[${s.ref}]`} text={s.name} />
              ),
            )}
            {answer.provider ? <Detail.Metadata.Separator /> : null}
            {answer.provider ? <Detail.Metadata.Label title="Provider" text={answer.provider} /> : null}
          </Detail.Metadata>
        ) : undefined
      }
      actions={
        <ActionPanel>
          {running ? <Action title="Stop" icon={Icon.Stop} onAction={() => abort.current?.abort()} /> : null}
          <ActionPanel.Section title="Sources">
            {answer.sources.map((s, i) =>
              s.link ? (
                <Action.Open
                  key={s.ref}
                  title={`Open ${sourceLabel(s)}`}
                  target={s.link}
                  icon={Icon.Document}
                  shortcut={i < digits.length ? { modifiers: ["cmd"], key: digits[i] } : undefined}
                />
              ) : null,
            )}
          </ActionPanel.Section>
          <ActionPanel.Section>
            <Action.CopyToClipboard
              title="Copy Answer"
              content={answer.text}
              shortcut={Keyboard.Shortcut.Common.Copy}
            />
          </ActionPanel.Section>
        </ActionPanel>
      }
    />
  );
}
