"""The monthly reminders workflow of the `invoices` package."""
import apollia


@apollia.workflow(name="monthly-reminders")
async def monthly_reminders(ctx, month: str | None = None):
    late = await ctx.step("collect", lambda: [])
    await ctx.step("confirm", lambda: ctx.ask("Send reminders?"))
    await ctx.step("send", lambda: [ctx.send(item) for item in late])
