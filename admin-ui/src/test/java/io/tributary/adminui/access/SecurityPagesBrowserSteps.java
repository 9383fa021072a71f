package io.tributary.adminui.access;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.adminui.security.SignInForm;
import io.tributary.adminui.testing.BrowserSteps;
import io.tributary.adminui.testing.ClusterProcesses;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The security pages end to end on {@code AdminUiBrowserIT}'s secured cluster ({@link ClusterProcesses#startSecured()})
 * and a UI that signs users in: ops (ALL on the cluster) sees ACLs, Users and Quotas in the navigation, creates
 * an ACL and finds it with a MATCH filter, deletes it after a confirmation listing it; creates SCRAM user
 * erin and changes her password, with which she then signs in (and, without rights, sees none of those pages),
 * and deletes her; sets a quota, sees it and removes it. auditor (DESCRIBE on the cluster) sees the ACLs (every
 * one the brokers have) without the form and no Quotas entry (DESCRIBE_CONFIGS needed). nobody (no ACLs) does
 * not see the entries, and a page opened by its address says why. {@link #grant(String)} makes the users and
 * ACLs first; the cluster is shared with {@code SignInBrowserSteps}, whose users and ACLs these steps leave alone.
 */
public final class SecurityPagesBrowserSteps extends BrowserSteps {

    private static final String OPS_PASSWORD = "ops-ui-pw-Tr62";
    private static final String NOBODY_PASSWORD = "nobody-ui-pw-Ka18";
    private static final String ERIN_PASSWORD = "erin-ui-pw-Wd35";
    private static final String AUDITOR_PASSWORD = "auditor-ui-pw-Hn27";

    private final SignInForm form;

    /** @param ui a UI signing users in on the secured cluster {@link #grant(String)} was run on */
    public SecurityPagesBrowserSteps(WebDriver browser, WebDriverWait wait, URI ui, String bootstrap,
            Path screenshots) {
        super(browser, wait, ui, bootstrap, screenshots);
        this.form = new SignInForm(browser, wait, ui);
    }

    /**
     * Users ops, nobody and auditor; ALL on the cluster for ops, DESCRIBE for auditor. {@code bootstrap} is
     * the secured cluster's listener for super users.
     */
    public static void grant(String bootstrap) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            admin.alterUserScramCredentials(List.of(scram("ops", OPS_PASSWORD), scram("nobody", NOBODY_PASSWORD),
                    scram("auditor", AUDITOR_PASSWORD)))
                .all().get(30, TimeUnit.SECONDS);
            admin.createAcls(List.of(onCluster("ops", AclOperation.ALL), onCluster("auditor", AclOperation.DESCRIBE)))
                .all().get(30, TimeUnit.SECONDS);
        }
    }

    @Override
    public void run() throws Exception {
        form.signIn("ops", OPS_PASSWORD);
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("nav a[href='#/acls']")));
        assertThat(browser.findElement(By.cssSelector("nav a[href='#/users']")).isDisplayed()).isTrue();
        assertThat(browser.findElement(By.cssSelector("nav a[href='#/quotas']")).isDisplayed()).isTrue();
        createFindAndDeleteAnAcl();
        setAQuota();
        createAUserWhoSignsIn();
        aUserWhoMayOnlyDescribeTheClusterGetsNoForms();
        aUserWithoutRightsSeesNoSecurityPages();
    }

    private void createFindAndDeleteAnAcl() throws Exception {
        browser.findElement(By.cssSelector("nav a[href='#/acls']")).click();
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("acl-form")));
        browser.findElement(By.id("acl-principal")).sendKeys("User:dave");
        new Select(browser.findElement(By.id("acl-resourceType"))).selectByValue("TOPIC");
        browser.findElement(By.id("acl-resourceName")).sendKeys("orders-");
        new Select(browser.findElement(By.id("acl-patternType"))).selectByValue("PREFIXED");
        new Select(browser.findElement(By.id("acl-operation"))).selectByValue("READ");
        browser.findElement(By.id("acl-create")).click();
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("acl-created")));
        String acl = "User:dave ALLOW READ on TOPIC orders- (PREFIXED) from *";
        By row = By.cssSelector("tr[data-acl='" + acl + "']");
        wait.until(ExpectedConditions.visibilityOfElementLocated(row));

        // MATCH: what applies to topic orders-eu finds the prefix; LITERAL of that name does not.
        browser.findElement(By.id("acl-filter-resourceName")).sendKeys("orders-eu");
        new Select(browser.findElement(By.id("acl-filter-patternType"))).selectByValue("MATCH");
        browser.findElement(By.id("acl-filter-apply")).click();
        wait.until(ExpectedConditions.textToBe(By.id("acl-total"), "1 ACL"));
        assertThat(browser.findElements(row)).hasSize(1);
        new Select(browser.findElement(By.id("acl-filter-patternType"))).selectByValue("LITERAL");
        browser.findElement(By.id("acl-filter-apply")).click();
        wait.until(ExpectedConditions.textToBe(By.id("acl-total"), "0 ACLs"));
        new Select(browser.findElement(By.id("acl-filter-patternType"))).selectByValue("MATCH");
        browser.findElement(By.id("acl-filter-apply")).click();
        wait.until(ExpectedConditions.visibilityOfElementLocated(row));
        screenshot("acls");

        browser.findElement(row).findElement(By.cssSelector("button[data-delete-acl]")).click();
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("confirm")));
        assertThat(browser.findElement(By.id("confirm-list")).getText()).isEqualTo(acl);
        browser.findElement(By.id("confirm-ok")).click();
        wait.until(ExpectedConditions.textToBe(By.id("acl-total"), "0 ACLs"));
        assertThat(browser.findElement(By.id("status")).getText()).isEqualTo("1 ACL deleted.");
    }

    private void setAQuota() throws Exception {
        browser.findElement(By.cssSelector("nav a[href='#/quotas']")).click();
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("quota-form")));
        browser.findElement(By.id("quota-user")).sendKeys("dave");
        browser.findElement(By.id("quota-producer_byte_rate")).sendKeys("1048576");
        browser.findElement(By.id("quota-save")).click();
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("quota-saved")));
        By row = By.cssSelector("tr[data-quota='User dave']");
        WebElement cell = wait.until(ExpectedConditions.visibilityOfElementLocated(row))
            .findElement(By.cssSelector("td[data-key='producer_byte_rate']"));
        assertThat(cell.getText()).isEqualTo("1048576");
        screenshot("quotas");

        browser.findElement(row).findElement(By.cssSelector("button[data-remove-quotas]")).click();
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("confirm")));
        assertThat(browser.findElement(By.id("confirm-list")).getText()).isEqualTo("producer_byte_rate = 1048576");
        browser.findElement(By.id("confirm-ok")).click();
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("no-quotas")));
    }

    private void createAUserWhoSignsIn() throws Exception {
        browser.findElement(By.cssSelector("nav a[href='#/users']")).click();
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("user-form")));
        browser.findElement(By.id("user-name")).sendKeys("erin");
        browser.findElement(By.id("user-password")).sendKeys(ERIN_PASSWORD);
        browser.findElement(By.id("user-save")).click();
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("user-saved")));
        By row = By.cssSelector("tr[data-user='erin']");
        wait.until(ExpectedConditions.textToBePresentInElementLocated(row, "SCRAM-SHA-512 (4096 iterations)"));
        assertThat(browser.getPageSource()).doesNotContain(ERIN_PASSWORD);
        screenshot("users");

        // Change her password: she signs in with the new one.
        String changed = ERIN_PASSWORD + "-2";
        browser.findElement(row).findElement(By.cssSelector("button[data-change-password]")).click();
        wait.until(ExpectedConditions.textToBe(By.id("user-form-title"), "Change the password of erin"));
        browser.findElement(By.id("user-password")).sendKeys(changed);
        browser.findElement(By.id("user-save")).click();
        wait.until(ExpectedConditions.textToBe(By.id("user-saved"), "Saved erin: SCRAM-SHA-512 (4096 iterations)."));

        form.signOut();
        form.signIn("erin", changed);
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("signed-in-user"), "erin"));
        browser.get(ui.resolve("/#/acls").toString());
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("access-refused")));
        assertThat(browser.findElements(By.cssSelector("nav a[href='#/acls']")).stream()
            .filter(WebElement::isDisplayed)).isEmpty();
        form.signOut();

        form.signIn("ops", OPS_PASSWORD);
        browser.get(ui.resolve("/#/users").toString());
        wait.until(ExpectedConditions.visibilityOfElementLocated(row)).findElement(By.cssSelector(
            "button[data-delete-user]")).click();
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("confirm")));
        assertThat(browser.findElement(By.id("confirm-list")).getText()).isEqualTo("SCRAM-SHA-512");
        browser.findElement(By.id("confirm-ok")).click();
        wait.until(ExpectedConditions.invisibilityOfElementLocated(row));
        form.signOut();
    }

    private void aUserWhoMayOnlyDescribeTheClusterGetsNoForms() throws Exception {
        form.signIn("auditor", AUDITOR_PASSWORD);
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("nav a[href='#/acls']")));
        assertThat(browser.findElement(By.cssSelector("nav a[href='#/users']")).isDisplayed()).isTrue();
        assertThat(browser.findElement(By.cssSelector("nav a[href='#/quotas']")).isDisplayed())
            .as("no DESCRIBE_CONFIGS on the cluster").isFalse();
        browser.findElement(By.cssSelector("nav a[href='#/acls']")).click();
        wait.until(ExpectedConditions.textToBe(By.id("acl-total"), aclCount() + " ACLs"));
        assertThat(browser.findElements(By.id("acl-form"))).as("no ALTER: no create form").isEmpty();
        assertThat(browser.findElements(By.cssSelector("button[data-delete-acl]"))).isEmpty();
        form.signOut();
    }

    private void aUserWithoutRightsSeesNoSecurityPages() throws Exception {
        form.signIn("nobody", NOBODY_PASSWORD);
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("signed-in-user"), "nobody"));
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("overview-title")));
        for (String page : List.of("acls", "users", "quotas")) {
            assertThat(browser.findElement(By.cssSelector("nav a[href='#/" + page + "']")).isDisplayed())
                .as("nav entry %s", page).isFalse();
        }
        browser.get(ui.resolve("/#/quotas").toString());
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("access-refused")));
        assertThat(browser.findElement(By.id("access-refused")).getText())
            .contains("You may not see client quotas on this cluster.");
        screenshot("security-refused");
        form.signOut();
    }

    /** How many ACLs the brokers have (the secured cluster is shared: other steps' ACLs count too). */
    private int aclCount() throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            return admin.describeAcls(AclBindingFilter.ANY).values().get(30, TimeUnit.SECONDS).size();
        }
    }

    private static AclBinding onCluster(String user, AclOperation operation) {
        return new AclBinding(new ResourcePattern(ResourceType.CLUSTER, "kafka-cluster", PatternType.LITERAL),
            new AccessControlEntry("User:" + user, "*", operation, AclPermissionType.ALLOW));
    }

    private static UserScramCredentialUpsertion scram(String user, String password) {
        return new UserScramCredentialUpsertion(user, new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 4096),
            password);
    }
}
