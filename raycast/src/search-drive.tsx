import { Action, ActionPanel, Detail, Icon, Keyboard, List, showToast, Toast } from "@raycast/api";
import { useEffect, useRef, useState } from "react";
import {
  ChoiceRow,
  FileRow,
  filter,
  FilterResult,
  GdsNotFound,
  InsteadRow,
  MessageRow,
  QuestionRow,
  RunRow,
  runText,
} from "./gds";
import { searchOptions } from "./preferences";
import { fileAccessories, fileIcon, folderOf, resultsSubtitle, sections, summaryMarkdown } from "./rows";
import { answered, filterText, initialState, picked, SearchState, typed } from "./search-state";

export default function SearchDrive() {
  const options = useRef(searchOptions()).current;
  const [state, setState] = useState<SearchState>(initialState);
  const [result, setResult] = useState<FilterResult>({ rows: [] });
  const [loading, setLoading] = useState(true);
  const [missing, setMissing] = useState<string>();

  // One gds call per state change; a newer one aborts the call still running.
  const text = filterText(state);
  useEffect(() => {
    const abort = new AbortController();
    setLoading(true);
    filter(options, text, abort.signal)
      .then((r) => {
        if (abort.signal.aborted) return;
        setMissing(undefined);
        setResult(r);
        setState((s) => answered(s, r));
        setLoading(false);
      })
      .catch((err: Error) => {
        if (abort.signal.aborted || err.name === "AbortError") return;
        setLoading(false);
        if (err instanceof GdsNotFound) {
          setMissing(err.message);
          return;
        }
        showToast({ style: Toast.Style.Failure, title: "gds failed", message: err.message });
      });
    return () => abort.abort();
  }, [text]);

  const pick = (grammar: string) => setState((s) => picked(s, grammar));
  const groups = sections(result.rows);
  const run = groups.search[0] as RunRow | undefined;
  const instead = groups.corrected[0] as InsteadRow | undefined;
  const fullSearch = run ? () => pick(run.query) : state.text.trim() ? () => pick(runText(state.text)) : undefined;

  if (missing) {
    return (
      <List>
        <List.EmptyView icon={Icon.ExclamationMark} title="gds is not installed" description={missing} />
      </List>
    );
  }
  return (
    <List
      isLoading={loading}
      filtering={false}
      throttle
      searchText={state.text}
      onSearchTextChange={(t) => setState((s) => typed(s, t))}
      searchBarPlaceholder={state.token ? "Type your own answer, or pick one below" : "Search Drive"}
      navigationTitle={state.query ? `gds: ${state.query}` : "Search Drive"}
    >
      <List.Section title="gds">
        {groups.search.map((r, i) => (
          <RunItem key={`run-${i}`} row={r as RunRow} onRun={pick} />
        ))}
      </List.Section>
      <List.Section title={instead?.corrected ?? (instead ? "Corrected" : undefined)}>
        {groups.corrected.map((r, i) => (
          <InsteadItem key={`instead-${i}`} row={r as InsteadRow} onRun={pick} />
        ))}
      </List.Section>
      <List.Section title={result.question ? "Question" : undefined}>
        {groups.question.map((r, i) =>
          r.kind === "question" ? (
            <QuestionItem key={`q-${i}`} row={r} />
          ) : (
            <ChoiceItem key={`c-${i}`} row={r as ChoiceRow} onPick={pick} />
          ),
        )}
      </List.Section>
      <List.Section title="Results" subtitle={resultsSubtitle(groups.results)}>
        {groups.results.map((r) => (
          <FileItem key={(r as FileRow).id} row={r as FileRow} onFullSearch={fullSearch} />
        ))}
      </List.Section>
      <List.Section title="Notices">
        {groups.notices.map((r, i) => (
          <MessageItem key={`m-${i}`} row={r as MessageRow} onText={(t) => setState(typed(initialState, t))} />
        ))}
      </List.Section>
    </List>
  );
}

function RunItem({ row, onRun }: { row: RunRow; onRun: (grammar: string) => void }) {
  return (
    <List.Item
      icon={Icon.MagnifyingGlass}
      title={row.title}
      subtitle={row.subtitle}
      actions={
        <ActionPanel>
          <Action title="Run Full Search" icon={Icon.MagnifyingGlass} onAction={() => onRun(row.query)} />
        </ActionPanel>
      }
    />
  );
}

function InsteadItem({ row, onRun }: { row: InsteadRow; onRun: (grammar: string) => void }) {
  return (
    <List.Item
      icon={Icon.ArrowCounterClockwise}
      title={row.title}
      subtitle={row.subtitle}
      actions={
        <ActionPanel>
          <Action title="Search Instead" icon={Icon.MagnifyingGlass} onAction={() => onRun(row.query)} />
        </ActionPanel>
      }
    />
  );
}

function QuestionItem({ row }: { row: QuestionRow }) {
  return <List.Item icon={Icon.QuestionMarkCircle} title={row.title} subtitle={row.subtitle} />;
}

function ChoiceItem({ row, onPick }: { row: ChoiceRow; onPick: (grammar: string) => void }) {
  return (
    <List.Item
      icon={Icon.ArrowRightCircle}
      title={row.title}
      subtitle={row.subtitle}
      actions={
        <ActionPanel>
          <Action title="Choose" icon={Icon.Checkmark} onAction={() => onPick(row.query)} />
        </ActionPanel>
      }
    />
  );
}

function MessageItem({ row, onText }: { row: MessageRow; onText: (text: string) => void }) {
  const text = row.text;
  return (
    <List.Item
      icon={Icon.Info}
      title={row.title}
      subtitle={row.subtitle}
      actions={
        text ? (
          <ActionPanel>
            <Action title="Edit Query" icon={Icon.Pencil} onAction={() => onText(text)} />
          </ActionPanel>
        ) : undefined
      }
    />
  );
}

function FileItem({ row, onFullSearch }: { row: FileRow; onFullSearch?: () => void }) {
  const folder = folderOf(row);
  return (
    <List.Item
      icon={fileIcon(row)}
      title={row.title}
      subtitle={row.subtitle}
      accessories={fileAccessories(row)}
      quickLook={row.localPath ? { path: row.localPath, name: row.title } : undefined}
      actions={
        <ActionPanel>
          <ActionPanel.Section>
            {row.localPath ? (
              <Action.Open title="Open" target={row.localPath} />
            ) : (
              <Action.OpenInBrowser title="Open" url={row.link} />
            )}
            <Action.CopyToClipboard title="Copy Link" content={row.link} shortcut={Keyboard.Shortcut.Common.Copy} />
            {row.localPath ? <Action.ToggleQuickLook shortcut={Keyboard.Shortcut.Common.ToggleQuickLook} /> : null}
            {row.localPath ? <Action.ShowInFinder path={row.localPath} /> : null}
            {folder ? (
              <Action.Open
                title="Open Folder"
                icon={Icon.Folder}
                target={folder}
                shortcut={Keyboard.Shortcut.Common.OpenWith}
              />
            ) : null}
          </ActionPanel.Section>
          <ActionPanel.Section>
            {onFullSearch ? (
              <Action
                title="Run Full Search"
                icon={Icon.MagnifyingGlass}
                shortcut={{ modifiers: ["cmd", "shift"], key: "enter" }}
                onAction={onFullSearch}
              />
            ) : null}
            <Action.Push
              title="Show Summary"
              icon={Icon.Text}
              shortcut={{ modifiers: ["cmd", "shift"], key: "y" }}
              target={<Detail navigationTitle={row.title} markdown={summaryMarkdown(row)} />}
            />
          </ActionPanel.Section>
        </ActionPanel>
      }
    />
  );
}
