export {
  planDurationLabel,
  renewalText,
  subscriptionStatusLabel,
} from "./api/format";
export { adminUsersKeys, USERS_PAGE_SIZE } from "./api/users";
export { AdminUserDetailsPage } from "./components/user-details-page";
export { AdminUsersPage } from "./components/users-page";
