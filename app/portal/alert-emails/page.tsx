import { PortalAlertEmailsScreen } from "@/components/portal/alert-emails/alert-emails-screen";

export default function PortalAlertEmailsPage() {
  return <PortalAlertEmailsScreen />;
}
