package io.tributary.adminui.security;

import java.net.URI;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The sign-in page of a UI with {@code admin-ui.authentication.method=basic} and its Sign out button,
 * driven as a user does, for the browser steps that sign users in. Not thread-safe (one browser).
 */
public final class SignInForm {

    private final WebDriver browser;
    private final WebDriverWait wait;
    private final URI ui;

    /** @param ui the UI's base URL */
    public SignInForm(WebDriver browser, WebDriverWait wait, URI ui) {
        this.browser = browser;
        this.wait = wait;
        this.ui = ui;
    }

    /**
     * Fills in and sends the sign-in form (opening this UI's {@code /login} unless the browser is on it
     * already, e.g. sent there by the UI or after signing out),
     * without waiting for the outcome: a refused sign-in stays on the form.
     */
    public void submit(String user, String password) {
        if (!browser.getCurrentUrl().startsWith(ui.resolve("/login").toString())) {
            browser.get(ui.resolve("/login").toString());
        }
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("login-form")));
        WebElement name = browser.findElement(By.id("username"));
        name.clear();
        name.sendKeys(user);
        browser.findElement(By.id("password")).sendKeys(password);
        browser.findElement(By.id("login-submit")).click();
    }

    /** Signs {@code user} in and waits until the header names them. */
    public void signIn(String user, String password) {
        submit(user, password);
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("signed-in-user"), user));
    }

    /** Signs out with the header's button and waits for the sign-in page to say so. */
    public void signOut() {
        wait.until(ExpectedConditions.elementToBeClickable(By.id("sign-out"))).click();
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("login-signed-out")));
    }
}
