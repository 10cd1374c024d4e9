import { clsx } from "clsx";
import { Fragment, type ReactNode } from "react";
import { wordWrapTdClasses } from "./sortable-header";
import { UserAvatar } from "./user-avatar";

/**
 * The cells that show a person in the admin lists. A name wraps between words and an e-mail
 * after its @ and before its dots; neither asks for more than 8rem, so the tables fit 1280 px
 * with the sidebar open, and only a single word longer than that breaks inside.
 */
const textBox = "min-w-0 max-w-32 break-words";

interface Person {
  name: string;
  email: string;
  profileImage: string | null;
}

/** The avatar, then the name (plain, a link or a button) with whatever stands under it. */
export function PersonNameCell({
  person,
  className = "min-w-[8rem]",
  children,
}: {
  person: Person;
  /** The cell's least width. */
  className?: string;
  children: ReactNode;
}) {
  return (
    <td className={clsx(wordWrapTdClasses, className)}>
      <div className="flex items-center gap-3">
        <UserAvatar name={person.name} email={person.email} image={person.profileImage} />
        <div className={textBox}>{children}</div>
      </div>
    </td>
  );
}

export function EmailCell({ email }: { email: string }) {
  return (
    <td className={clsx(wordWrapTdClasses, "min-w-[9rem]")}>
      <div className={textBox}>
        <EmailText email={email} />
      </div>
    </td>
  );
}

/** An e-mail address that may wrap after its @ and before its dots, not inside a word. */
export function EmailText({ email }: { email: string }) {
  let offset = 0;
  return email.split(/(?<=@)|(?=\.)/).map((part) => {
    const start = offset;
    offset += part.length;
    return (
      // Text nodes beside the <wbr>s, not spans: the address stays one text to find and copy.
      <Fragment key={start}>
        {start > 0 ? <wbr /> : null}
        {part}
      </Fragment>
    );
  });
}
